import { requireStaff } from "~/features/auth/guard.server";
import { reportExport } from "~/features/reports/exports.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-reports-export";

/**
 * /crm/relatorios/exportar?relatorio=…&formato=csv|xlsx&periodo=… — one report table. No report
 * holds personal data, so every staff member may download them (issue 12).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { api: true });
  // An export may read many rows: the long-work connections, whose limit never cuts it short.
  return reportExport((await getRuntime()).database.longDb, new URL(request.url));
}
