import { requireStaff } from "~/features/auth/guard.server";
import { serveDocument } from "~/features/owners/page.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-captacao-document";

/**
 * /crm/captacao/:propertyId/documento — a listing's signed authorisation (PDF), to staff only and
 * never cached; the file lives in the private part of the media storage (decision 024).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { api: true });
  const runtime = await getRuntime();
  return serveDocument({ db: runtime.db, storage: runtime.storage }, params.propertyId);
}
