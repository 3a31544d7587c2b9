import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Pagination } from "~/components/ui/pagination";
import { toast } from "~/components/ui/toaster";
import { requireStaff } from "~/features/auth/guard.server";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import type { AgendaVisit } from "~/features/visits/agenda.server";
import { CALENDAR_VIEW_LABELS, CALENDAR_VIEWS, calendarHref } from "~/features/visits/calendar-labels";
import { VisitCalendar } from "~/features/visits/components/visit-calendar";
import { CalendarFeedCard } from "~/features/visits/components/calendar-feed-card";
import { VisitAgenda } from "~/features/visits/components/visit-agenda";
import { type VisitDialogTarget, VisitFormDialog } from "~/features/visits/components/visit-form-dialog";
import { SHOW_ALL, SHOW_PARAM, VISIT_MESSAGES } from "~/features/visits/labels";
import { handleVisitsAction, loadVisitsPage } from "~/features/visits/page.server";
import { cn } from "~/lib/utils";
import { withPage } from "~/lib/pagination";
import type { Route } from "./+types/crm-visits";

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  return loadVisitsPage(request, staff);
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  return handleVisitsAction(request, staff);
}

export const meta: Route.MetaFunction = () => [{ title: "Visitas | CRM" }];

export default function CrmVisitsPage({ loaderData }: Route.ComponentProps) {
  const { agenda, calendar, loadFailed, prefill, prefillMissing, feed, leadOptions, propertyOptions } = loaderData;
  useLiveUpdates("visits");
  const navigate = useNavigate();
  // Opened from a lead page or a booking (?lead=<id>): the form starts with that lead.
  const [dialog, setDialog] = useState<{ open: boolean; target: VisitDialogTarget }>(() => ({
    open: Boolean(prefill),
    target: { mode: "new", lead: prefill?.lead, property: prefill?.property },
  }));
  // Keyed on the lead's id: live updates revalidate and hand a new prefill object each time, which
  // must not reopen a dialog the broker closed.
  useEffect(() => {
    if (prefill) setDialog({ open: true, target: { mode: "new", lead: prefill.lead, property: prefill.property } });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [prefill?.lead.id]);

  useEffect(() => {
    if (loadFailed) toast.error(VISIT_MESSAGES.loadFailed);
  }, [loadFailed]);
  useEffect(() => {
    if (prefillMissing) toast.error(VISIT_MESSAGES.leadNotFound);
  }, [prefillMissing]);

  const total = agenda.total;
  const keep: Record<string, string> = agenda.showAll ? { [SHOW_PARAM]: SHOW_ALL } : {};

  return (
    <div className="grid gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Visitas</h1>
          {!calendar && (
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {total} {total === 1 ? "visita" : "visitas"} {agenda.showAll ? "no total" : "a fazer"}
            </p>
          )}
        </div>
        <Button onClick={() => setDialog({ open: true, target: { mode: "new" } })}>
          <Icon name="calendar-plus" /> Agendar visita
        </Button>
      </header>

      <nav aria-label="Como mostrar as visitas" className="flex flex-wrap gap-2">
        <Link
          to="/crm/visitas"
          aria-current={!calendar && !agenda.showAll ? "page" : undefined}
          className={cn(buttonClass(!calendar && !agenda.showAll ? "default" : "outline", "sm"))}
        >
          Próximas
        </Link>
        <Link
          to={`/crm/visitas?${SHOW_PARAM}=${SHOW_ALL}`}
          aria-current={!calendar && agenda.showAll ? "page" : undefined}
          className={cn(buttonClass(!calendar && agenda.showAll ? "default" : "outline", "sm"))}
        >
          Todas (inclui passadas e canceladas)
        </Link>
        {CALENDAR_VIEWS.map((view) => (
          <Link
            key={view}
            // The same day in another view: a week's 'Mês' opens that week's month.
            to={calendarHref(view, calendar?.date)}
            aria-current={calendar?.view === view ? "page" : undefined}
            className={cn(buttonClass(calendar?.view === view ? "default" : "outline", "sm"))}
          >
            {CALENDAR_VIEW_LABELS[view]}
          </Link>
        ))}
      </nav>

      {calendar ? (
        <VisitCalendar calendar={calendar} onEdit={(visit: AgendaVisit) => setDialog({ open: true, target: { mode: "edit", visit } })} />
      ) : (
        <>
          <VisitAgenda
            days={agenda.days}
            emptyText={agenda.showAll ? "Nenhuma visita registrada" : "Nenhuma visita agendada. Use 'Agendar visita' para marcar uma."}
            onEdit={(visit: AgendaVisit) => setDialog({ open: true, target: { mode: "edit", visit } })}
          />

          <Pagination page={agenda.page} pageCount={agenda.pageCount} hrefFor={(target) => `/crm/visitas${withPage(keep, target)}`} />
        </>
      )}

      <CalendarFeedCard active={feed.active} createdAt={feed.createdAt} />

      <VisitFormDialog
        open={dialog.open}
        onOpenChange={(open) => setDialog((current) => ({ ...current, open }))}
        target={dialog.target}
        leadChoices={leadOptions}
        propertyChoices={propertyOptions}
        // Scheduled from ?lead=: leave the address, so a reload does not open the form again.
        onSaved={() => prefill && navigate("/crm/visitas", { replace: true, preventScrollReset: true })}
      />
    </div>
  );
}
