import { DndContext, type DragEndEvent, MouseSensor, useDraggable, useDroppable, useSensor, useSensors } from "@dnd-kit/core";
import { Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { cn } from "~/lib/utils";
import type { AgendaVisit } from "../agenda.server";
import { calendarHref } from "../calendar-labels";
import type { CalendarData, CalendarDay, CalendarReminder, CalendarVisit } from "../calendar-view.server";
import { VISIT_STATUS_LABELS } from "../labels";

/**
 * The agenda as a calendar, rendered on the server: previous / today / next are plain links, each
 * visit a button opening the edit dialog (the keyboard's way to reschedule), each 'Próximo
 * contato' a link to the lead. With a mouse, a visit dragged onto another day keeps its time and
 * moves there (the same 'update' intent as the dialog). Below `lg` the days stack as a list: a
 * phone cannot show seven columns.
 */

const WEEKDAYS = ["Dom", "Seg", "Ter", "Qua", "Qui", "Sex", "Sáb"];
const RESCHEDULE_FETCHER = "visit-reschedule";

function VisitChip({ visit, onEdit }: { visit: CalendarVisit; onEdit: (visit: AgendaVisit) => void }) {
  const { setNodeRef, listeners, isDragging } = useDraggable({ id: visit.id, data: visit });
  const status = visit.status === "agendada" ? "" : ` (${VISIT_STATUS_LABELS[visit.status].toLowerCase()})`;
  return (
    <li>
      <button
        ref={setNodeRef}
        type="button"
        // Only the mouse drags (see MouseSensor below): its listeners, not dnd-kit's keyboard attributes.
        {...listeners}
        onClick={() => onEdit(visit)}
        data-testid="calendar-visit"
        data-visit-id={visit.id}
        title={`${visit.time} ${visit.lead.full_name}`}
        className={cn(
          "flex w-full min-w-0 flex-wrap items-center gap-x-1.5 rounded-md border border-sky-300 bg-sky-50 px-2 py-1 text-left text-sm text-sky-950 hover:bg-sky-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
          visit.status === "realizada" && "border-green-300 bg-green-50 text-green-950",
          visit.status === "cancelada" && "border-border bg-muted text-muted-foreground line-through",
          visit.conflict && "border-amber-500 ring-1 ring-amber-500",
          isDragging && "opacity-50",
        )}
      >
        {/* The name is the visible text (WCAG 2.5.3) with a hidden verb in front. */}
        <span className="sr-only">Editar visita: </span>
        <time dateTime={visit.scheduled_at} className="font-bold tabular-nums">
          {visit.time}
        </time>
        <span className="min-w-0 truncate" data-lead-name>
          {visit.lead.full_name}
        </span>
        {status && <span className="sr-only">{status}</span>}
        {visit.conflict && (
          <Badge variant="warning" className="no-underline">
            <Icon name="circle-alert" className="size-3" /> Conflito<span className="sr-only"> de horário</span>
          </Badge>
        )}
      </button>
    </li>
  );
}

function ReminderChip({ reminder }: { reminder: CalendarReminder }) {
  return (
    <li>
      <Link
        to={`/crm/leads/${reminder.leadId}`}
        data-testid="calendar-reminder"
        className="flex w-full min-w-0 flex-wrap items-center gap-x-1.5 rounded-md border border-dashed border-amber-500 bg-amber-50 px-2 py-1 text-sm text-amber-950 hover:bg-amber-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <Icon name="phone" className="size-3" />
        <time dateTime={reminder.at} className="font-bold tabular-nums">
          {reminder.time}
        </time>
        <span className="min-w-0 truncate">Ligar para {reminder.firstName}</span>
      </Link>
    </li>
  );
}

function DayCell({ day, view, onEdit }: { day: CalendarDay; view: CalendarData["view"]; onEdit: (visit: AgendaVisit) => void }) {
  const { setNodeRef, isOver } = useDroppable({ id: day.day });
  const empty = day.visits.length === 0 && day.reminders.length === 0;
  return (
    <section
      ref={setNodeRef}
      aria-labelledby={`cal-${day.day}`}
      data-testid={`calendar-day-${day.day}`}
      className={cn(
        "min-w-0 rounded-lg border border-border bg-white p-2",
        view !== "dia" && "lg:min-h-32",
        !day.inRange && "bg-muted/40",
        // On a phone the month shows only the days with something in them.
        view === "mes" && (empty || !day.inRange) && "hidden lg:block",
        isOver && "ring-2 ring-primary",
      )}
    >
      <h3 id={`cal-${day.day}`} className="mb-1.5 flex flex-wrap items-baseline gap-x-1.5 text-sm font-semibold">
        {view === "mes" ? (
          <>
            <span className="lg:hidden">{day.label}</span>
            <span className={cn("lg:text-base", day.label === "Hoje" && "lg:rounded-full lg:bg-primary lg:px-2 lg:text-primary-foreground")}>
              <span className="lg:hidden">{day.date}</span>
              <span className="hidden lg:inline" aria-hidden="true">
                {day.dayOfMonth}
              </span>
            </span>
          </>
        ) : (
          <>
            <span>{day.label}</span>
            <span className="font-normal text-muted-foreground">{day.date}</span>
          </>
        )}
      </h3>
      {empty ? (
        <p className={cn("text-xs text-muted-foreground", view === "mes" && "sr-only")}>Nada marcado</p>
      ) : (
        <ul className="grid grid-cols-1 gap-1">
          {/* Calls and visits in time order (ISO instants sort as text). */}
          {[...day.reminders.map((reminder) => ({ at: reminder.at, reminder })), ...day.visits.map((visit) => ({ at: visit.scheduled_at, visit }))]
            .sort((a, b) => a.at.localeCompare(b.at))
            .map((item) =>
              "visit" in item ? (
                <VisitChip key={item.visit.id} visit={item.visit} onEdit={onEdit} />
              ) : (
                <ReminderChip key={`r-${item.reminder.leadId}`} reminder={item.reminder} />
              ),
            )}
        </ul>
      )}
    </section>
  );
}

export function VisitCalendar({ calendar, onEdit }: { calendar: CalendarData; onEdit: (visit: AgendaVisit) => void }) {
  const fetcher = useFetcher<ActionAnswer>({ key: RESCHEDULE_FETCHER });
  useAnswerToast(fetcher);
  // Mouse only: on a touch screen a drag would fight the page's scrolling; the dialog does it there.
  const sensors = useSensors(useSensor(MouseSensor, { activationConstraint: { distance: 6 } }));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const visit = active.data.current as CalendarVisit | undefined;
    const day = over ? String(over.id) : null;
    if (!visit || !day || day === visit.when_input.slice(0, 10)) return;
    const values = {
      lead_id: visit.lead.id,
      property_id: visit.property?.id ?? "",
      scheduled_at: `${day}T${visit.when_input.slice(11, 16)}`,
      notes: visit.notes ?? "",
    };
    fetcher.submit({ intent: "update", id: visit.id, values } as never, { method: "post", action: "/crm/visitas", encType: "application/json" });
  };
  const { view } = calendar;
  const total = calendar.days.reduce((sum, day) => sum + (day.inRange ? day.visits.length : 0), 0);
  return (
    <section aria-labelledby="calendar-title" className="grid gap-3" data-testid="visit-calendar">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="calendar-title" className="text-lg font-bold">
          {calendar.title}
        </h2>
        <nav aria-label="Navegar no calendário" className="flex gap-1">
          <Link to={calendarHref(view, calendar.prev)} className={buttonClass("outline", "sm")} aria-label="Período anterior">
            <Icon name="chevron-left" />
          </Link>
          <Link to={calendarHref(view, calendar.today)} className={buttonClass("outline", "sm")}>
            Hoje
          </Link>
          <Link to={calendarHref(view, calendar.next)} className={buttonClass("outline", "sm")} aria-label="Próximo período">
            <Icon name="chevron-right" />
          </Link>
        </nav>
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {total} {total === 1 ? "visita" : "visitas"} neste período.
        {calendar.conflicts > 0 && (
          <span className="ml-2 inline-flex items-center gap-1 font-semibold text-amber-900" data-testid="calendar-conflicts">
            <Icon name="circle-alert" /> {calendar.conflicts} com conflito de horário (mesma pessoa, menos de 1 hora entre elas).
          </span>
        )}
        <span className="hidden lg:inline"> Arraste uma visita para outro dia para remarcá-la, ou abra-a para mudar data e hora.</span>
      </p>
      <DndContext id="calendario-de-visitas" sensors={sensors} onDragEnd={onDragEnd}>
        {view === "mes" && (
          <div className="hidden grid-cols-7 gap-2 text-center text-xs font-semibold text-muted-foreground lg:grid" aria-hidden="true">
            {WEEKDAYS.map((name) => (
              <span key={name}>{name}</span>
            ))}
          </div>
        )}
        <div className={cn("grid gap-2", view !== "dia" && "lg:grid-cols-7")}>
          {calendar.days.map((day) => (
            <DayCell key={day.day} day={day} view={view} onEdit={onEdit} />
          ))}
        </div>
      </DndContext>
    </section>
  );
}
