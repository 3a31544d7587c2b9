import { requireAdmin } from "~/features/auth/guard.server";
import { exportPersonResponse } from "~/features/privacy/export.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-privacy-export";

/**
 * /crm/privacidade/exportar?lead=<id>&formato=json|csv — everything held about the person of
 * that lead, as a file (LGPD art. 18). Admins only; each download is recorded in the audit trail.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, { api: true });
  // An export may read many rows: the long-work connections, whose limit never cuts it short.
  return exportPersonResponse((await getRuntime()).database.longDb, { id: admin.id, email: admin.email, name: admin.name }, new URL(request.url));
}
