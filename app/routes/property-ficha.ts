import { fichaResponse } from "~/features/ficha/ficha.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { clientIp } from "~/lib/client-ip.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/property-ficha";

/**
 * GET /imoveis/:id/ficha.pdf — the listing's ficha (A4 PDF, issue 22 item 6) for visitors: only
 * what the property page shows (the public view: no street, number or complement when
 * 'Exibir endereço' is off), 404 for a listing the public cannot see, a limit per address.
 * Kept out of the page cache (server/request-rules.ts); revalidated by its ETag.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const runtime = await getRuntime();
  const broker = await loadBrokerProfile(runtime.db);
  return fichaResponse(
    request,
    { db: runtime.db, storage: runtime.storage, broker, publicUrl: runtime.env.publicUrl, ip: clientIp(request, context) },
    params.id,
    "public",
  );
}
