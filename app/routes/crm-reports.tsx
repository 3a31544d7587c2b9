import { data } from "react-router";
import { Card } from "~/components/ui/card";
import { requireStaff } from "~/features/auth/guard.server";
import { ReportsView } from "~/features/reports/components/reports-view";
import { PeriodSelector } from "~/features/reports/components/period-selector";
import { DEFAULT_PERIOD, parsePeriod } from "~/features/reports/period";
import { loadReport } from "~/features/reports/reports.server";
import { canSeeCommissions, loadDealSettings } from "~/features/deals/deal-settings.server";
import { reportTables } from "~/features/reports/tables";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-reports";

/**
 * /crm/relatorios (issue 12, replacing the spec's placeholder): leads by origin, the funnel,
 * conversion and response times, leads per week, the properties that brought leads, sales and
 * rentals, the most viewed listings — for a period in the URL beside the previous one, each
 * downloadable; from issue 24 the deals closed (naming their clients, whom staff see in the CRM
 * anyway), proposals and commissions. Every staff member reads them.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  const parsed = parsePeriod(new URL(request.url).searchParams);
  if (!parsed.ok) return data({ error: parsed.message, report: null }, { status: 400 });
  const { db } = await getRuntime();
  // Issue 24: the commissions' total for admins (corretores when the settings say so).
  const report = await loadReport(db, parsed.period, { commissions: canSeeCommissions(staff.role, await loadDealSettings(db)) });
  return { error: null, report: { period: parsed.period, summary: report.summary, tables: reportTables(report) } };
}

export const meta: Route.MetaFunction = () => [{ title: "Relatórios | CRM" }];

export default function CrmReportsPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.report) {
    return (
      <div className="grid gap-6">
        <h1 className="text-2xl font-bold">Relatórios</h1>
        <Card role="alert" className="border-destructive/40 p-4 text-sm text-destructive">
          {loaderData.error}
        </Card>
        <PeriodSelector preset={DEFAULT_PERIOD} from="" to="" />
      </div>
    );
  }
  return <ReportsView {...loaderData.report} />;
}
