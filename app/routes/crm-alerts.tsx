import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { EmailAddress } from "~/components/ui/email-address";
import { Pagination } from "~/components/ui/pagination";
import { loadCrmAlerts, type AlertStatusFilter } from "~/features/alerts/crm-list.server";
import { requireStaff } from "~/features/auth/guard.server";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { formatDateTime } from "~/lib/format";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-alerts";

/**
 * /crm/avise-me — the visitors' 'Avise-me' alerts (issue 23, decision 025): the demand the site
 * collects, with how many available listings already fit each search. Staff only; read-only.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  return loadCrmAlerts((await getRuntime()).db, new URL(request.url));
}

export const meta: Route.MetaFunction = () => [{ title: "Avise-me | CRM" }];

const FILTERS: { value: AlertStatusFilter; label: string }[] = [
  { value: "todos", label: "Todos" },
  { value: "confirmados", label: "Confirmados" },
  { value: "pendentes", label: "Aguardando confirmação" },
];

const hrefFor = (status: AlertStatusFilter, page = 1) => {
  const params = new URLSearchParams();
  if (status !== "todos") params.set("status", status);
  if (page > 1) params.set("pagina", String(page));
  const query = params.toString();
  return query ? `/crm/avise-me?${query}` : "/crm/avise-me";
};

export default function CrmAlertsPage({ loaderData }: Route.ComponentProps) {
  useLiveUpdates("leads", "properties");
  const { status, page, pageCount, total, counts, rows } = loaderData;
  return (
    <div className="grid gap-6">
      <header>
        <h1 className="text-2xl font-bold">Avise-me</h1>
        <p className="text-sm text-muted-foreground">
          Visitantes que pediram para ser avisados quando surgir um imóvel como o que buscaram: {counts.confirmed}{" "}
          {counts.confirmed === 1 ? "alerta confirmado" : "alertas confirmados"} e {counts.pending} aguardando confirmação (apagados
          após 7 dias). Quem deixou WhatsApp vira lead ao confirmar. Só o próprio visitante altera seus alertas, pelos links dos
          e-mails; para apagar a pedido dele, use Privacidade (LGPD).
        </p>
      </header>

      <nav aria-label="Filtrar alertas" className="flex flex-wrap gap-2">
        {FILTERS.map((filter) => (
          <Link
            key={filter.value}
            to={hrefFor(filter.value)}
            aria-current={filter.value === status ? "page" : undefined}
            className={buttonClass(filter.value === status ? "default" : "outline", "sm")}
          >
            {filter.label}
          </Link>
        ))}
      </nav>

      {rows.length === 0 ? (
        <Card className="p-6 text-center text-sm text-muted-foreground">Nenhum alerta {status === "todos" ? "cadastrado" : "nesta situação"}.</Card>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label="Alertas">
          {rows.map((alert) => (
            <li key={alert.id}>
              <Card className="grid gap-2 p-4 text-sm">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <p className="min-w-0 font-semibold">{alert.search}</p>
                  {alert.status === "confirmed" ? <Badge variant="success">Confirmado</Badge> : <Badge variant="warning">Aguardando confirmação</Badge>}
                </div>
                <p className="text-muted-foreground">
                  <EmailAddress email={alert.email} />
                  {alert.phone ? (
                    <>
                      {" · "}
                      <span className="whitespace-nowrap">WhatsApp {alert.phone}</span>
                    </>
                  ) : null}
                </p>
                <p className="text-muted-foreground">
                  Pedido em {formatDateTime(alert.created_at)}
                  {alert.last_sent_at ? ` · último aviso em ${formatDateTime(alert.last_sent_at)}` : ""}
                </p>
                <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
                  <Link to={`/imoveis${alert.query ? `?${alert.query}` : ""}`} className="font-medium text-primary underline underline-offset-2">
                    {alert.matching} {alert.matching === 1 ? "imóvel disponível atende" : "imóveis disponíveis atendem"} hoje
                  </Link>
                  {alert.lead && (
                    <Link to={`/crm/leads/${alert.lead.id}`} className="font-medium text-primary underline underline-offset-2">
                      Lead: {alert.lead.full_name}
                    </Link>
                  )}
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {total} {total === 1 ? "alerta" : "alertas"}
        {pageCount > 1 ? ` · página ${page} de ${pageCount}` : ""}
      </p>
      <Pagination page={page} pageCount={pageCount} hrefFor={(target) => hrefFor(status, target)} />
    </div>
  );
}
