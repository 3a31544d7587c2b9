import { Card } from "~/components/ui/card";
import { AuditList, AuditPagination } from "~/features/audit/components/audit-list";
import { listAuditEntries, parsePage } from "~/features/audit/audit-log.server";
import { requireAdmin } from "~/features/auth/guard.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-audit";

/** /crm/auditoria — who did what in the CRM, and every sign-in, newest first, in Portuguese (admins only). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = parsePage(new URL(request.url).searchParams.get("pagina"));
  return listAuditEntries((await getRuntime()).db, page);
}

export const meta: Route.MetaFunction = () => [{ title: "Auditoria | CRM" }];

export default function CrmAuditPage({ loaderData }: Route.ComponentProps) {
  const { entries, page, pageCount, total } = loaderData;
  return (
    <div className="grid gap-6">
      <header>
        <h1 className="text-2xl font-bold">Auditoria</h1>
        <p className="text-sm text-muted-foreground">
          Quem fez o quê no CRM, e cada entrada (login) com o endereço de onde veio: {total} {total === 1 ? "registro" : "registros"},
          os mais recentes primeiro. De dados pessoais, o registro guarda só quais campos mudaram, nunca os valores; os nomes
          mostrados são os de hoje. As entradas ficam guardadas por 90 dias.
        </p>
      </header>
      <Card>
        <AuditList entries={entries} />
        <AuditPagination page={page} pageCount={pageCount} />
      </Card>
    </div>
  );
}
