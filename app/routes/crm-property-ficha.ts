import { requireStaff } from "~/features/auth/guard.server";
import { fichaResponse } from "~/features/ficha/ficha.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { clientIp } from "~/lib/client-ip.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-property-ficha";

/**
 * GET /crm/imoveis/:id/ficha.pdf — the ficha for staff (issue 22 item 6): any listing, whatever
 * its status, with the full address (the broker hands it to a client in person). Signed out:
 * the sign-in page, then back here.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request);
  const runtime = await getRuntime();
  const broker = await loadBrokerProfile(runtime.db);
  return fichaResponse(
    request,
    { db: runtime.db, storage: runtime.storage, broker, publicUrl: runtime.env.publicUrl, ip: clientIp(request, context) },
    params.id,
    "crm",
  );
}
