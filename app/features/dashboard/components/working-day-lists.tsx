import type { ReactNode } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { Icon, type IconName } from "~/components/ui/icon";
import { LEAD_STATUS_LABELS, LEAD_STATUS_VARIANT } from "~/features/leads/labels";
import { formatDateTime } from "~/lib/format";
import { formatRelative } from "../relative-time";
import type { DashboardLead, DashboardList, DashboardVisit, WorkingDay } from "../working-day.server";

/** One of the dashboard's lists: a heading with its total, a few rows, a calm empty state. */
function Section({
  id,
  title,
  icon,
  total,
  empty,
  more,
  children,
}: {
  id: string;
  title: string;
  icon: IconName;
  total: number;
  empty: string;
  more?: { to: string; label: string };
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    <Card className="flex min-w-0 flex-col" data-testid={id}>
      <section aria-labelledby={headingId} className="flex flex-1 flex-col">
        <header className="flex items-center gap-3 border-b border-border px-4 py-3">
          <Icon name={icon} className="size-5 text-primary" />
          <h2 id={headingId} className="flex-1 font-semibold">
            {title}
          </h2>
          <span className="rounded-full bg-muted px-2.5 py-0.5 text-sm font-semibold" data-total>
            {total}
          </span>
        </header>
        {total === 0 ? (
          <p className="flex-1 px-4 py-6 text-center text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="flex-1 divide-y divide-border">{children}</ul>
        )}
        {more && total > 0 && (
          <Link to={more.to} className="border-t border-border px-4 py-3 text-sm font-medium text-primary underline-offset-4 hover:underline">
            {more.label}
          </Link>
        )}
      </section>
    </Card>
  );
}

/** A row that opens the lead: the whole line is the link, with a second line of detail. */
function LeadRow({ id, name, detail, aside }: { id: string; name: string; detail: ReactNode; aside?: ReactNode }) {
  return (
    <li>
      <Link to={`/crm/leads/${id}`} className="flex items-center gap-3 px-4 py-3 hover:bg-muted/60 focus-visible:bg-muted/60">
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium">{name}</span>
          <span className="block truncate text-sm text-muted-foreground">{detail}</span>
        </span>
        {aside}
      </Link>
    </li>
  );
}

function overflowLabel(list: DashboardList<unknown>) {
  const rest = list.total - list.items.length;
  return rest > 0 ? `e mais ${rest}` : null;
}

function DueTodayRows({ list, now }: { list: DashboardList<DashboardLead>; now: string }) {
  return list.items.map((lead) => {
    const due = lead.next_contact_at!;
    const overdue = new Date(due).getTime() < new Date(now).getTime();
    return (
      <LeadRow
        key={lead.id}
        id={lead.id}
        name={lead.full_name}
        detail={`${formatDateTime(due)} · ${lead.phone}`}
        aside={overdue ? <Badge variant="danger">Atrasado</Badge> : <Badge variant="info">Hoje</Badge>}
      />
    );
  });
}

function VisitRows({ list }: { list: DashboardList<DashboardVisit> }) {
  return list.items.map((visit) => (
    <LeadRow
      key={visit.id}
      id={visit.lead.id}
      name={visit.lead.full_name}
      detail={
        <>
          <span className="font-medium text-foreground">{formatDateTime(visit.scheduled_at)}</span>
          {visit.property ? ` · ${visit.property.codigo} — ${visit.property.title}` : " · sem imóvel"}
        </>
      }
    />
  ));
}

/** The working-day lists under the dashboard's counters; each row links to the lead's page. */
export function WorkingDayLists({ day, now }: { day: WorkingDay; now: string }) {
  const dueMore = overflowLabel(day.dueToday);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Section id="due-today" title="Para hoje" icon="bell" total={day.dueToday.total} empty="Nenhum contato marcado para hoje.">
        <DueTodayRows list={day.dueToday} now={now} />
        {dueMore && <li className="px-4 py-2 text-sm text-muted-foreground">{dueMore}</li>}
      </Section>

      <Section
        id="unattended"
        title="Sem atendimento há mais de 24 h"
        icon="clock"
        total={day.unattended.total}
        empty="Nenhum lead novo esperando há mais de 24 horas."
        more={{ to: "/crm/leads?status=novo", label: "Ver todos os leads novos" }}
      >
        {day.unattended.items.map((lead) => (
          <LeadRow
            key={lead.id}
            id={lead.id}
            name={lead.full_name}
            detail={`${lead.phone} · chegou ${formatRelative(lead.created_at, now)}`}
          />
        ))}
      </Section>

      <Section
        id="next-visits"
        title="Próximas visitas"
        icon="calendar-check"
        total={day.nextVisits.total}
        empty="Nenhuma visita agendada."
        more={{ to: "/crm/visitas", label: "Ver agenda de visitas" }}
      >
        <VisitRows list={day.nextVisits} />
      </Section>

      <Section
        id="latest-leads"
        title="Últimos leads"
        icon="users"
        total={day.latestLeads.length}
        empty="Nenhum lead cadastrado ainda."
        more={{ to: "/crm/leads", label: "Ver todos os leads" }}
      >
        {day.latestLeads.map((lead) => (
          <LeadRow
            key={lead.id}
            id={lead.id}
            name={lead.full_name}
            detail={`${formatRelative(lead.created_at, now)} · ${lead.phone}`}
            aside={<Badge variant={LEAD_STATUS_VARIANT[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>}
          />
        ))}
      </Section>
    </div>
  );
}
