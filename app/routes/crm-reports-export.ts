import { requireStaff } from "~/features/auth/guard.server";
import { reportExport } from "~/features/reports/exports.server";
import { canSeeCommissions, loadDealSettings } from "~/features/deals/deal-settings.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-reports-export";

/**
 * /crm/relatorios/exportar?relatorio=…&formato=csv|xlsx&periodo=… — one report table. No report
 * but 'negocios' (the deals' clients, audited) holds personal data, so every staff member may
 * download them (issue 12); commissions only for who may see them (issue 24).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { api: true });
  const runtime = await getRuntime();
  // Issue 24: the summary's commissions line only for who may see commissions.
  const commissions = canSeeCommissions(staff.role, await loadDealSettings(runtime.db));
  // An export may read many rows: the long-work connections, whose limit never cuts it short.
  return reportExport(runtime.database.longDb, new URL(request.url), { commissions, actor: { id: staff.id, email: staff.email, name: staff.name } });
}
