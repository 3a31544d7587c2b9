import { data } from "react-router";
import type { Database } from "~/db/client.server";
import { leadWhatsappLink } from "~/features/leads/contact-links";
import { loadBrokerProfile, loadWhatsappTemplates } from "~/features/settings/settings.server";
import { DEFAULT_WHATSAPP_TEMPLATES, fillTemplate, type WhatsappTemplate } from "~/features/settings/templates";
import { formatDateTime } from "~/lib/format";
import type { StaffUser } from "~/features/auth/guard.server";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { pageInfo, parsePage, searchText, TABLE_PAGE_SIZE } from "~/lib/pagination";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/features/runtime/handle.server";
import { type AgendaPage, createVisit, listAgenda, setVisitStatus, updateVisit, type VisitWriteResult } from "./agenda.server";
import { leadOptions, propertyOptions, schedulePrefill } from "./pickers.server";
import { feedStatus, feedUrl, regenerateFeed, revokeFeed } from "./calendar.server";
import { CALENDAR_MESSAGES, VIEW_PARAM } from "./calendar-labels";
import { type CalendarData, clashesOf, loadCalendar, parseCalendarParams } from "./calendar-view.server";
import {
  LEAD_PARAM,
  LEAD_SEARCH_PARAM,
  OPTIONS_PARAM,
  PROPERTY_SEARCH_PARAM,
  SHOW_ALL,
  SHOW_PARAM,
  VISIT_MESSAGES,
} from "./labels";
import { visitFormSchema, visitStatusSchema } from "./schema";
import { visitorMailDeps } from "./visitor-mail.server";

/** The /crm/visitas loader's work, after the route checked the role. */
export async function loadVisitsPage(request: Request, staff: StaffUser) {
  const { db } = await getRuntime();
  const params = new URL(request.url).searchParams;
  const showAll = params.get(SHOW_PARAM) === SHOW_ALL;
  const optionsOnly = params.has(OPTIONS_PARAM);
  const [leadChoices, propertyChoices] = await Promise.all([
    leadOptions(db, searchText(params.get(LEAD_SEARCH_PARAM))),
    propertyOptions(db, searchText(params.get(PROPERTY_SEARCH_PARAM))),
  ]);
  const empty: AgendaPage = { ...pageInfo(1, 0, TABLE_PAGE_SIZE), showAll, days: [] };
  // The pickers' searches (typing in the dialog) need only the choices.
  if (optionsOnly) {
    return { agenda: empty, calendar: null, loadFailed: false, leadOptions: leadChoices, propertyOptions: propertyChoices, prefill: null, prefillMissing: false, feed: { active: false, createdAt: null } };
  }
  const leadParam = params.get(LEAD_PARAM);
  // ?vista=dia|semana|mes: the calendar instead of the list (a bad view or date is a 400).
  const calendarParams = params.has(VIEW_PARAM) ? parseCalendarParams(params) : undefined;
  if (calendarParams === null) throw data(CALENDAR_MESSAGES.badParams, { status: 400 });
  const failed = (error: unknown) => {
    logger("visits").error({ ...errorFields(error) }, "agenda could not be loaded");
    return null;
  };
  const [agenda, calendar, prefill, feed] = await Promise.all([
    calendarParams === undefined ? listAgenda(db, { showAll, page: parsePage(params) }).catch(failed) : empty,
    calendarParams ? loadCalendar(db, calendarParams).catch(failed) : null,
    schedulePrefill(db, leadParam),
    feedStatus(db, staff.id),
  ]);
  if (agenda) await addWhatsappConfirmations(db, agenda);
  return {
    agenda: agenda ?? empty,
    calendar: calendar as CalendarData | null,
    loadFailed: agenda === null || (Boolean(calendarParams) && calendar === null),
    leadOptions: leadChoices,
    propertyOptions: propertyChoices,
    prefill,
    prefillMissing: Boolean(leadParam) && prefill === null,
    feed,
  };
}

/**
 * 'Confirmar por WhatsApp' on each scheduled visit: the settings' confirmation template (the one
 * named like 'Confirmar visita', else the first-run one) filled for the lead, with the date added
 * when the template does not say it.
 */
async function addWhatsappConfirmations(db: Database, agenda: AgendaPage): Promise<void> {
  const [templates, broker] = await Promise.all([loadWhatsappTemplates(db), loadBrokerProfile(db)]);
  const template = confirmationTemplate(templates);
  for (const day of agenda.days) {
    for (const visit of day.visits) {
      if (visit.status !== "agendada") continue;
      const filled = fillTemplate(template.body, { leadName: visit.lead.full_name, propertyTitle: visit.property?.title ?? "", propertyCodigo: visit.property?.codigo ?? "", brokerName: broker.name });
      const when = `${formatDateTime(visit.scheduled_at).replace(", ", " às ")}`;
      visit.whatsapp_confirm = leadWhatsappLink(visit.lead.phone, `${filled} Data: ${when}.`);
    }
  }
}

export function confirmationTemplate(templates: WhatsappTemplate[]): WhatsappTemplate {
  const fold = (value: string) => value.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  return (
    templates.find((template) => template.id === "confirmar-visita") ??
    templates.find((template) => fold(template.name).includes("confirm")) ??
    DEFAULT_WHATSAPP_TEMPLATES.find((template) => template.id === "confirmar-visita")!
  );
}

export type VisitsPageData = Awaited<ReturnType<typeof loadVisitsPage>>;

/** What the agenda's actions answer (a toast); `feedUrl` only right after a feed is made. */
export type VisitActionAnswer = { ok: boolean; message: string; feedUrl?: string; conflict?: boolean };

const WRITE_ERRORS: Record<Exclude<VisitWriteResult, { ok: true }>["reason"], { status: number; message: string }> = {
  not_found: { status: 404, message: VISIT_MESSAGES.notFound },
  lead: { status: 400, message: VISIT_MESSAGES.leadNotFound },
  property: { status: 400, message: VISIT_MESSAGES.propertyNotFound },
};

const STATUS_MESSAGES = { agendada: VISIT_MESSAGES.reopened, realizada: VISIT_MESSAGES.done, cancelada: VISIT_MESSAGES.cancelled } as const;

/**
 * The /crm/visitas action's work: intents create, update, status, feed (make or regenerate my
 * calendar URL) and feed-revoke. Every input is checked here, whatever the page sent.
 */
export async function handleVisitsAction(request: Request, staff: StaffUser) {
  const actor = { id: staff.id, email: staff.email, name: staff.name };
  const runtime = await getRuntime();
  const { db, env } = runtime;
  const wake = () => runtime.mail.wake();
  const answer = (ok: boolean, message: string, status = ok ? 200 : 400) => data<VisitActionAnswer>({ ok, message }, { status });
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return answer(false, body.message);
  const intent = asString(body.intent);
  const id = asString(body.id) ?? "";

  try {
    if (intent === "create" || intent === "update") {
      const parsed = visitFormSchema.safeParse(body.values ?? body);
      if (!parsed.success) return answer(false, firstIssueMessage(parsed.error));
      const mail = await visitorMailDeps(db, env.publicUrl);
      const result = intent === "create" ? await createVisit(db, actor, parsed.data, mail) : await updateVisit(db, actor, id, parsed.data, mail);
      // The visitor's confirmation was queued with the visit: send it now, not at the next poll.
      if (result.ok) wake();
      if (!result.ok) return answer(false, WRITE_ERRORS[result.reason].message, WRITE_ERRORS[result.reason].status);
      const saved = intent === "create" ? VISIT_MESSAGES.created : VISIT_MESSAGES.updated;
      // A clash is a warning, not a refusal: two visits in the same building are fine.
      const clashes = await clashesOf(db, result.id);
      if (clashes.length === 0) return answer(true, saved);
      return data<VisitActionAnswer>({ ok: true, message: `${saved} ${CALENDAR_MESSAGES.clash(clashes)}`, conflict: true });
    }
    if (intent === "status") {
      const status = visitStatusSchema.safeParse(body.status);
      if (!status.success) return answer(false, firstIssueMessage(status.error));
      if (!(await setVisitStatus(db, actor, id, status.data, await visitorMailDeps(db, env.publicUrl)))) return answer(false, VISIT_MESSAGES.notFound, 404);
      wake();
      return answer(true, STATUS_MESSAGES[status.data]);
    }
    if (intent === "feed") {
      const token = await regenerateFeed(db, actor);
      return data<VisitActionAnswer>({ ok: true, message: VISIT_MESSAGES.feedCreated, feedUrl: feedUrl(env.publicUrl, token) });
    }
    if (intent === "feed-revoke") {
      await revokeFeed(db, actor);
      return answer(true, VISIT_MESSAGES.feedRevoked);
    }
  } catch (error) {
    logger("visits").error({ intent, ...errorFields(error) }, "visit action failed");
    return answer(false, intent?.startsWith("feed") ? VISIT_MESSAGES.feedFailed : VISIT_MESSAGES.saveFailed, 500);
  }
  return answer(false, VISIT_MESSAGES.unknownAction);
}
