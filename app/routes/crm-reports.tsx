import { Card } from "~/components/ui/card";
import { Icon, type IconName } from "~/components/ui/icon";
import { requireStaff } from "~/features/auth/guard.server";
import type { Route } from "./+types/crm-reports";

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  return null;
}

export const meta: Route.MetaFunction = () => [{ title: "Relatórios | CRM" }];

const PLANNED: { icon: IconName; title: string }[] = [
  { icon: "trending-up", title: "Vendas por período" },
  { icon: "chart-pie", title: "Origem dos leads" },
  { icon: "target", title: "Taxa de conversão" },
  { icon: "eye", title: "Imóveis mais visualizados" },
  { icon: "file-spreadsheet", title: "Exportação para planilha e CSV" },
];

/** Spec §2 "Reports": a placeholder listing what is planned. */
export default function CrmReportsPage() {
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-bold">Relatórios</h1>
      <Card className="grid justify-items-center gap-4 p-8 text-center">
        <Icon name="chart-column" className="size-12 text-primary" />
        <h2 className="text-xl font-semibold">Relatórios em Desenvolvimento</h2>
        <p className="max-w-md text-muted-foreground">Em breve você poderá acompanhar:</p>
        <ul className="grid w-full max-w-md gap-2 text-left">
          {PLANNED.map((report) => (
            <li key={report.title} className="flex items-center gap-3 rounded-md border border-border p-3">
              <Icon name={report.icon} className="size-5 text-primary" />
              {report.title}
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
