import { Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { cn } from "~/lib/utils";
import type { AgendaDay, AgendaVisit } from "../agenda.server";
import { VISIT_STATUS_LABELS, VISIT_STATUS_VARIANT, type VisitStatus } from "../labels";

/** Digits for tel: links ("(84) 99999-0000" → "+5584999990000"). */
function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length >= 10 && digits.length <= 11 ? `tel:+55${digits}` : `tel:${digits}`;
}

/**
 * One fetcher for every status button: a visit marked done leaves the list (and its button
 * unmounts) in the same update that brings the answer, so the agenda, which stays, shows it.
 */
const STATUS_FETCHER = "visit-status";

/** A status button: a small form, so it also works before the page's JavaScript has loaded. */
function StatusButton({ visit, status, label, icon, variant }: { visit: AgendaVisit; status: VisitStatus; label: string; icon: "calendar-check" | "calendar-x" | "history"; variant: "outline" | "default" }) {
  const fetcher = useFetcher<ActionAnswer>({ key: STATUS_FETCHER });
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action="/crm/visitas">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="id" value={visit.id} />
      <input type="hidden" name="status" value={status} />
      <Button type="submit" size="sm" variant={variant} disabled={busy} aria-label={`${label}: visita de ${visit.lead.full_name} às ${visit.time}`}>
        <Icon name={icon} /> {label}
      </Button>
    </fetcher.Form>
  );
}

function VisitItem({ visit, onEdit }: { visit: AgendaVisit; onEdit: (visit: AgendaVisit) => void }) {
  return (
    <li className="grid gap-3 p-4 sm:grid-cols-[4.5rem_1fr] sm:gap-4" data-testid="visit-item">
      <div className="flex items-center gap-2 sm:flex-col sm:items-start">
        <time dateTime={visit.scheduled_at} className="text-lg font-bold tabular-nums">
          {visit.time}
        </time>
        <Badge variant={VISIT_STATUS_VARIANT[visit.status]}>{VISIT_STATUS_LABELS[visit.status]}</Badge>
        {visit.overdue && <Badge variant="warning">Passou</Badge>}
      </div>
      <div className="grid min-w-0 gap-1.5">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <Link to={`/crm/leads/${visit.lead.id}`} className="font-semibold text-primary underline-offset-4 hover:underline">
            {visit.lead.full_name}
          </Link>
          <a href={telHref(visit.lead.phone)} className="inline-flex items-center gap-1 text-sm underline-offset-4 hover:underline">
            <Icon name="phone" /> {visit.lead.phone}
          </a>
        </div>
        {visit.property ? (
          <a
            href={`/imoveis/${visit.property.id}`}
            target="_blank"
            rel="noreferrer"
            className="inline-flex min-w-0 items-center gap-1 text-sm text-foreground underline-offset-4 hover:underline"
          >
            <Icon name="house" />
            <span className="whitespace-nowrap font-mono text-xs">{visit.property.codigo}</span>
            <span className="truncate">{visit.property.title}</span>
            <Icon name="external-link" className="size-3" />
            <span className="sr-only">(abre em nova aba)</span>
          </a>
        ) : (
          <p className="text-sm text-muted-foreground">Imóvel a definir</p>
        )}
        {visit.notes && <p className="whitespace-pre-line break-words text-sm text-muted-foreground">{visit.notes}</p>}
        {visit.created_by_name && <p className="text-xs text-muted-foreground">Agendada por {visit.created_by_name}</p>}
        <div className="mt-1 flex flex-wrap gap-2">
          {visit.status === "agendada" ? (
            <>
              <StatusButton visit={visit} status="realizada" label="Realizada" icon="calendar-check" variant="default" />
              <StatusButton visit={visit} status="cancelada" label="Cancelar" icon="calendar-x" variant="outline" />
            </>
          ) : (
            <StatusButton visit={visit} status="agendada" label="Reabrir" icon="history" variant="outline" />
          )}
          <Button size="sm" variant="outline" onClick={() => onEdit(visit)} aria-label={`Editar visita de ${visit.lead.full_name} às ${visit.time}`}>
            <Icon name="pencil" /> Editar
          </Button>
          {visit.whatsapp_confirm && (
            <a
              href={visit.whatsapp_confirm}
              target="_blank"
              rel="noopener noreferrer"
              className={buttonClass("whatsapp", "sm")}
              aria-label={`Confirmar por WhatsApp a visita de ${visit.lead.full_name} às ${visit.time}`}
            >
              <Icon name="whatsapp" /> Confirmar por WhatsApp
            </a>
          )}
          <a
            href={`/crm/visitas/${visit.id}/ics`}
            download
            className={buttonClass("ghost", "sm")}
            aria-label={`Baixar .ics da visita de ${visit.lead.full_name} às ${visit.time}`}
          >
            <Icon name="download" /> .ics
          </a>
        </div>
      </div>
    </li>
  );
}

/** The agenda: one section per day of the broker's calendar, visits in time order. */
export function VisitAgenda({ days, emptyText, onEdit }: { days: AgendaDay[]; emptyText: string; onEdit: (visit: AgendaVisit) => void }) {
  useAnswerToast(useFetcher<ActionAnswer>({ key: STATUS_FETCHER }));
  if (days.length === 0) {
    return (
      <Card className="p-8 text-center text-muted-foreground">
        <Icon name="calendar" className="mx-auto mb-2 size-8" />
        <p>{emptyText}</p>
      </Card>
    );
  }
  return (
    <div className="grid gap-6">
      {days.map((day) => (
        <section key={day.day} aria-labelledby={`dia-${day.day}`} data-testid={`visit-day-${day.day}`}>
          <h2 id={`dia-${day.day}`} className="mb-2 flex flex-wrap items-baseline gap-x-2 text-lg font-bold">
            <span>{day.label}</span>
            <span className={cn("text-sm font-normal text-muted-foreground")}>{day.date}</span>
          </h2>
          <Card>
            <ul className="divide-y divide-border">
              {day.visits.map((visit) => (
                <VisitItem key={visit.id} visit={visit} onEdit={onEdit} />
              ))}
            </ul>
          </Card>
        </section>
      ))}
    </div>
  );
}
