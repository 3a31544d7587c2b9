import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import type { CommissionDue, OpenNegotiation } from "../dashboard.server";
import { dayLabel } from "../labels";
import { formatCents } from "../money";

/** The dashboard's 'Negociações abertas' and 'Comissões a receber' (issue 24, item 5). */
export function DashboardNegotiations({
  open,
  commissions,
  today,
}: {
  open: { total: number; items: OpenNegotiation[] };
  commissions: { totalCents: number; items: CommissionDue[] } | null;
  today: string;
}) {
  return (
    <div className={`grid gap-4 ${commissions ? "xl:grid-cols-2" : ""}`}>
      <Card className="flex min-w-0 flex-col" data-testid="open-negotiations">
        <section aria-labelledby="open-negotiations-heading">
          <header className="flex items-center gap-3 border-b border-border px-4 py-3">
            <Icon name="heart-handshake" className="size-5 text-primary" />
            <h2 id="open-negotiations-heading" className="flex-1 font-semibold">
              Negociações abertas
            </h2>
            <span className="rounded-full bg-muted px-2.5 py-0.5 text-sm font-semibold" data-total>
              {open.total}
            </span>
          </header>
          {open.items.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-muted-foreground">Nenhuma proposta em negociação.</p>
          ) : (
            <ul className="divide-y divide-border">
              {open.items.map((item) => {
                const expiresToday = item.validUntil === today;
                return (
                  <li key={item.id}>
                    <Link to={`/crm/leads/${item.leadId}`} className="grid gap-0.5 px-4 py-3 hover:bg-muted focus-visible:bg-muted">
                      <span className="break-words font-medium">
                        {item.leadName} · {item.codigo} · {item.amountCents === null ? "—" : formatCents(item.amountCents)}
                        {item.kind === "aluguel" ? "/mês" : ""}
                      </span>
                      <span className="text-sm text-muted-foreground">
                        Próximo passo: {item.lastParty === "proprietario" ? "resposta do cliente" : "resposta do proprietário"} ·{" "}
                        <span className={expiresToday ? "font-semibold text-destructive" : undefined}>
                          {expiresToday ? "vence hoje" : `válida até ${dayLabel(item.validUntil)}`}
                        </span>
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      </Card>
      {commissions && (
        <Card className="flex min-w-0 flex-col" data-testid="commissions-to-receive">
          <section aria-labelledby="commissions-heading">
            <header className="flex items-center gap-3 border-b border-border px-4 py-3">
              <Icon name="trending-up" className="size-5 text-primary" />
              <h2 id="commissions-heading" className="flex-1 font-semibold">
                Comissões a receber neste mês
              </h2>
              <span className="rounded-full bg-muted px-2.5 py-0.5 text-sm font-semibold" data-total>
                {formatCents(commissions.totalCents)}
              </span>
            </header>
            {commissions.items.length === 0 ? (
              <p className="px-4 py-6 text-center text-sm text-muted-foreground">Nenhuma comissão a receber neste mês.</p>
            ) : (
              <ul className="divide-y divide-border">
                {commissions.items.map((item) => {
                  const overdue = item.dueOn !== null && item.dueOn < today;
                  return (
                    <li key={item.dealId}>
                      <Link to={`/crm/leads/${item.leadId}`} className="grid gap-0.5 px-4 py-3 hover:bg-muted focus-visible:bg-muted">
                        <span className="break-words font-medium">
                          {formatCents(item.cents)} · {item.codigo} · {item.leadName}
                        </span>
                        <span className={`text-sm ${overdue ? "font-semibold text-destructive" : "text-muted-foreground"}`}>
                          {item.dueOn ? `${overdue ? "Atrasada: venceu" : "Vence"} em ${dayLabel(item.dueOn)}` : "Sem data de vencimento"}
                        </span>
                      </Link>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </Card>
      )}
    </div>
  );
}
