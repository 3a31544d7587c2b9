import { and, asc, count, desc, eq, gt, gte, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties, type VISIT_STATUSES, visits } from "~/db/schema";
import { type AuditActor, changedFields, recordAudit } from "~/features/audit/audit.server";
import { BROKER_TIME_ZONE, brokerDay, endOfBrokerDay, toBrokerDateTimeInput } from "~/lib/format";
import { firstName } from "~/features/push/kinds";
import { dayHeading } from "./days";
import type { ReminderForCalendar } from "./calendar.server";
import { isUuid } from "~/lib/ids";
import { preferenceLabel, type VisitPreference } from "~/features/leads/visit-preferences";
import { containsPattern, pageInfo, type PageInfo, TABLE_PAGE_SIZE } from "~/lib/pagination";
import { VISIT_STATUS_VALUES, type VisitStatus } from "./labels";
import type { VisitFormValues } from "./schema";
import { queueVisitorMail, type VisitorMailDeps } from "./visitor-mail.server";

/**
 * The visits agenda (/crm/visitas): reads grouped by the broker's calendar day, and the writes
 * (schedule, edit, done, cancelled). Staff only: the route checks the role first. Every write
 * records an audit row in its transaction, naming changed fields, never their values.
 */

// The browser's copy of the statuses (labels.ts) must be the schema's list, in either direction.
type SameList<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const statusesMatch: SameList<(typeof VISIT_STATUSES)[number], VisitStatus> = true;
void statusesMatch;
void VISIT_STATUS_VALUES;

export type AgendaVisit = {
  id: string;
  scheduled_at: string;
  /** "14:30" in the broker's time zone. */
  time: string;
  /** The datetime-local value for the edit form. */
  when_input: string;
  status: VisitStatus;
  notes: string | null;
  created_by_name: string | null;
  lead: { id: string; full_name: string; phone: string; preferences: string[] };
  property: { id: string; codigo: string; title: string } | null;
  /** Still 'agendada' although its time has passed: the broker should say how it went. */
  overdue: boolean;
  /** 'Confirmar por WhatsApp' (issue 25): a wa.me link with the confirmation text, while scheduled. */
  whatsapp_confirm: string | null;
};

export type AgendaDay = { day: string; label: string; date: string; visits: AgendaVisit[] };

export type AgendaPage = PageInfo & { showAll: boolean; days: AgendaDay[] };

/** `preferences`: the days and periods the lead asked for when booking (issue 25), as labels. */
export type LeadOption = { id: string; label: string; property_id: string | null; preferences?: string[] };

const preferenceLabels = (list: VisitPreference[] | null) => (list ?? []).map(preferenceLabel);
export type PropertyOption = { id: string; label: string };

/** How far back the default view keeps visits nobody marked as done or cancelled. */
const OVERDUE_DAYS = 30;
const PICKER_LIMIT = 20;

const timeFormat = new Intl.DateTimeFormat("pt-BR", { timeZone: BROKER_TIME_ZONE, hour: "2-digit", minute: "2-digit" });
export function startOfBrokerToday(now = new Date()): Date {
  return new Date(endOfBrokerDay(now).getTime() - 86_400_000);
}

function whereFor(showAll: boolean, now: Date) {
  if (showAll) return undefined;
  return and(eq(visits.status, "agendada"), gte(visits.scheduled_at, new Date(startOfBrokerToday(now).getTime() - OVERDUE_DAYS * 86_400_000)));
}

/** What a visit row of the agenda (list or calendar) selects: join leads, left join properties. */
export const agendaColumns = {
  visit: visits,
  leadName: leads.full_name,
  leadPhone: leads.phone,
  leadPreferences: leads.visit_preferences,
  propertyId: properties.id,
  propertyCodigo: properties.codigo,
  propertyTitle: properties.title,
};

type AgendaRow = {
  visit: typeof visits.$inferSelect;
  leadName: string;
  leadPhone: string;
  leadPreferences: VisitPreference[] | null;
  propertyId: string | null;
  propertyCodigo: string | null;
  propertyTitle: string | null;
};

export function toAgendaVisit(row: AgendaRow, now: Date): AgendaVisit {
  const at = new Date(row.visit.scheduled_at);
  return {
    id: row.visit.id,
    scheduled_at: at.toISOString(),
    time: timeFormat.format(at),
    when_input: toBrokerDateTimeInput(at),
    status: row.visit.status,
    notes: row.visit.notes,
    created_by_name: row.visit.created_by_name,
    lead: { id: row.visit.lead_id, full_name: row.leadName, phone: row.leadPhone, preferences: preferenceLabels(row.leadPreferences) },
    property: row.propertyId ? { id: row.propertyId, codigo: row.propertyCodigo!, title: row.propertyTitle! } : null,
    overdue: row.visit.status === "agendada" && at.getTime() < now.getTime(),
    whatsapp_confirm: null,
  };
}

/**
 * One page of the agenda. By default what is still to do: scheduled visits from today on, and
 * those of the last 30 days nobody marked (soonest first). `showAll`: every visit, latest first.
 */
export async function listAgenda(
  db: Database,
  { showAll, page }: { showAll: boolean; page: number },
  now = new Date(),
  pageSize = TABLE_PAGE_SIZE,
): Promise<AgendaPage> {
  const where = whereFor(showAll, now);
  const [{ total }] = await db.select({ total: count() }).from(visits).where(where);
  const info = pageInfo(page, total, pageSize);
  if (total === 0) return { ...info, showAll, days: [] };
  const rows = await db
    .select(agendaColumns)
    .from(visits)
    .innerJoin(leads, eq(leads.id, visits.lead_id))
    .leftJoin(properties, eq(properties.id, visits.property_id))
    .where(where)
    .orderBy(...(showAll ? [desc(visits.scheduled_at), desc(visits.id)] : [asc(visits.scheduled_at), asc(visits.id)]))
    .limit(pageSize)
    .offset((info.page - 1) * pageSize);

  const days: AgendaDay[] = [];
  for (const row of rows) {
    const at = new Date(row.visit.scheduled_at);
    const day = brokerDay(at);
    let group = days.at(-1);
    if (!group || group.day !== day) {
      group = { day, ...dayHeading(day, now), visits: [] };
      days.push(group);
    }
    group.visits.push(toAgendaVisit(row, now));
  }
  // Latest days first in the full history, but a day always reads in time order.
  if (showAll) for (const group of days) group.visits.reverse();
  return { ...info, showAll, days };
}

const leadLabel = (lead: { full_name: string; phone: string }) => `${lead.full_name} — ${lead.phone}`;
const propertyLabel = (property: { codigo: string; title: string }) => `${property.codigo} — ${property.title}`;

/**
 * The lead picker's choices: the most recent leads, or those matching a search by name, e-mail
 * or phone (digits alone match too). The expression is the one leads_search_idx indexes
 * (migration 0004, as in features/leads/crm.server.ts): change both or the index goes unused.
 */
export async function leadOptions(db: Database, search: string): Promise<LeadOption[]> {
  const where = search
    ? sql`lead_search_text(${leads.full_name}, ${leads.email}, ${leads.phone}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`
    : undefined;
  const rows = await db
    .select({ id: leads.id, full_name: leads.full_name, phone: leads.phone, property_id: leads.property_id, preferences: leads.visit_preferences })
    .from(leads)
    .where(where)
    .orderBy(desc(leads.created_at), desc(leads.id))
    .limit(PICKER_LIMIT);
  return rows.map((row) => ({ id: row.id, label: leadLabel(row), property_id: row.property_id, preferences: preferenceLabels(row.preferences) }));
}

/** The property picker's choices: the latest listings, or those whose código, title or bairro match. */
export async function propertyOptions(db: Database, search: string): Promise<PropertyOption[]> {
  const where = search
    ? sql`property_search_text(${properties.codigo}, ${properties.title}, ${properties.neighborhood}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`
    : undefined;
  const rows = await db
    .select({ id: properties.id, codigo: properties.codigo, title: properties.title })
    .from(properties)
    .where(where)
    .orderBy(desc(properties.created_at), desc(properties.id))
    .limit(PICKER_LIMIT);
  return rows.map((row) => ({ id: row.id, label: propertyLabel(row) }));
}

/**
 * What `?lead=<id>` opens the schedule form with: the lead, and the property the lead booked a
 * visit for (leads.property_id), if any. Null for an unknown or malformed id.
 */
export async function schedulePrefill(db: Database, leadId: string | null): Promise<{ lead: LeadOption; property: PropertyOption | null } | null> {
  if (!isUuid(leadId)) return null;
  const [row] = await db
    .select({
      id: leads.id,
      full_name: leads.full_name,
      phone: leads.phone,
      property_id: leads.property_id,
      preferences: leads.visit_preferences,
      codigo: properties.codigo,
      title: properties.title,
    })
    .from(leads)
    .leftJoin(properties, eq(properties.id, leads.property_id))
    .where(eq(leads.id, leadId))
    .limit(1);
  if (!row) return null;
  return {
    lead: { id: row.id, label: leadLabel(row), property_id: row.property_id, preferences: preferenceLabels(row.preferences) },
    property: row.property_id && row.codigo ? { id: row.property_id, label: propertyLabel({ codigo: row.codigo, title: row.title! }) } : null,
  };
}

export type VisitWriteResult = { ok: true; id: string } | { ok: false; reason: "not_found" | "lead" | "property" };

const actorName = (actor: NonNullable<AuditActor>) => actor.name?.trim() || actor.email;

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** The lead and the property must exist (a stale picker could name a deleted one). */
async function missingReference(tx: Tx, values: VisitFormValues): Promise<"lead" | "property" | null> {
  const [lead] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, values.lead_id)).limit(1);
  if (!lead) return "lead";
  if (values.property_id) {
    const [property] = await tx.select({ id: properties.id }).from(properties).where(eq(properties.id, values.property_id)).limit(1);
    if (!property) return "property";
  }
  return null;
}

function rowFrom(values: VisitFormValues) {
  return { lead_id: values.lead_id, property_id: values.property_id, scheduled_at: values.scheduled_at, notes: values.notes ?? null };
}

/**
 * `mail`: the visitor's confirmation goes with the write (issue 25); absent, no e-mail (imports,
 * tests of the agenda alone).
 */
export async function createVisit(db: Database, actor: NonNullable<AuditActor>, values: VisitFormValues, mail?: VisitorMailDeps): Promise<VisitWriteResult> {
  return db.transaction(async (tx) => {
    const missing = await missingReference(tx, values);
    if (missing) return { ok: false, reason: missing };
    const [row] = await tx
      .insert(visits)
      .values({ ...rowFrom(values), created_by: actor.id, created_by_name: actorName(actor) })
      .returning({ id: visits.id });
    await recordAudit(tx, { actor, action: "visit.create", entity: "visit", entityId: row.id });
    if (mail) await queueVisitorMail(tx, mail, row.id, "confirmation");
    return { ok: true, id: row.id };
  });
}

const EDITABLE_FIELDS = ["lead_id", "property_id", "scheduled_at", "notes"] as const;

/** Edit or reschedule; the status stays as it is (its own buttons change it). */
export async function updateVisit(
  db: Database,
  actor: NonNullable<AuditActor>,
  id: string,
  values: VisitFormValues,
  mail?: VisitorMailDeps,
): Promise<VisitWriteResult> {
  if (!isUuid(id)) return { ok: false, reason: "not_found" };
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(visits).where(eq(visits.id, id)).for("update");
    if (!before) return { ok: false, reason: "not_found" };
    const missing = await missingReference(tx, values);
    if (missing) return { ok: false, reason: missing };
    const row = rowFrom(values);
    const fields = changedFields(before, row, EDITABLE_FIELDS);
    if (fields.length > 0) {
      await tx.update(visits).set({ ...row, updated_at: new Date() }).where(eq(visits.id, id));
      await recordAudit(tx, { actor, action: "visit.update", entity: "visit", entityId: id, details: { fields } });
    }
    // A new time or place for a scheduled visit: the visitor's calendar copy is updated (same
    // UID, next SEQUENCE); a visit never confirmed to this lead gets its first confirmation.
    if (mail && before.status === "agendada" && fields.some((field) => field !== "notes")) {
      const leadChanged = fields.includes("lead_id");
      if (leadChanged) await tx.update(visits).set({ confirmation_sequence: null }).where(eq(visits.id, id));
      const kind = !leadChanged && before.confirmation_sequence != null ? "update" : "confirmation";
      await queueVisitorMail(tx, mail, id, kind);
    }
    return { ok: true, id };
  });
}

/** Done, cancelled, or back to scheduled. The same status again changes nothing. */
export async function setVisitStatus(db: Database, actor: NonNullable<AuditActor>, id: string, status: VisitStatus, mail?: VisitorMailDeps): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ status: visits.status }).from(visits).where(eq(visits.id, id)).for("update");
    if (!before) return false;
    if (before.status === status) return true;
    await tx.update(visits).set({ status, updated_at: new Date() }).where(eq(visits.id, id));
    // The status is a word of ours, not a person's data: safe in the audit details.
    await recordAudit(tx, { actor, action: "visit.update", entity: "visit", entityId: id, details: { fields: ["status"], status } });
    // Cancelled: the visitor's copy is cancelled (if they had one); scheduled again: confirmed again.
    if (mail && status === "cancelada") await queueVisitorMail(tx, mail, id, "cancellation");
    if (mail && status === "agendada") await queueVisitorMail(tx, mail, id, "confirmation");
    return true;
  });
}

/** Used by the calendar files: a visit with what its event shows. */
export type VisitForCalendar = {
  id: string;
  scheduled_at: Date;
  status: VisitStatus;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
  lead: { id: string; full_name: string; phone: string };
  property: { codigo: string; title: string; neighborhood: string; city: string } | null;
};

const calendarColumns = {
  visit: visits,
  leadName: leads.full_name,
  leadPhone: leads.phone,
  codigo: properties.codigo,
  title: properties.title,
  neighborhood: properties.neighborhood,
  city: properties.city,
};

type CalendarRow = {
  visit: typeof visits.$inferSelect;
  leadName: string;
  leadPhone: string;
  codigo: string | null;
  title: string | null;
  neighborhood: string | null;
  city: string | null;
};

function toCalendarVisit(row: CalendarRow): VisitForCalendar {
  return {
    id: row.visit.id,
    scheduled_at: new Date(row.visit.scheduled_at),
    status: row.visit.status,
    notes: row.visit.notes,
    created_at: new Date(row.visit.created_at),
    updated_at: new Date(row.visit.updated_at),
    lead: { id: row.visit.lead_id, full_name: row.leadName, phone: row.leadPhone },
    property: row.codigo ? { codigo: row.codigo, title: row.title!, neighborhood: row.neighborhood!, city: row.city! } : null,
  };
}

export async function visitForCalendar(db: Database, id: string): Promise<VisitForCalendar | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select(calendarColumns)
    .from(visits)
    .innerJoin(leads, eq(leads.id, visits.lead_id))
    .leftJoin(properties, eq(properties.id, visits.property_id))
    .where(eq(visits.id, id))
    .limit(1);
  return row ? toCalendarVisit(row) : null;
}

/** The most a feed carries: years of a small agency's visits, and a bound on the answer's size. */
const FEED_LIMIT = 2000;

/** Every staff member's visits not cancelled, from 30 days ago on (the calendar feed). */
export async function visitsForFeed(db: Database, now = new Date()): Promise<VisitForCalendar[]> {
  const rows = await db
    .select(calendarColumns)
    .from(visits)
    .innerJoin(leads, eq(leads.id, visits.lead_id))
    .leftJoin(properties, eq(properties.id, visits.property_id))
    .where(and(ne(visits.status, "cancelada"), gte(visits.scheduled_at, new Date(now.getTime() - 30 * 86_400_000))))
    .orderBy(asc(visits.scheduled_at), asc(visits.id))
    .limit(FEED_LIMIT);
  return rows.map(toCalendarVisit);
}

/**
 * 'Próximo contato' times still to come (issue 25), for the calendar feed next to the visits. Leads
 * have no owner here, so every staff member's feed carries every lead's reminder — the first name
 * only, as on a phone's lock screen.
 */
export async function remindersForFeed(db: Database, now = new Date()): Promise<ReminderForCalendar[]> {
  const rows = await db
    .select({ id: leads.id, full_name: leads.full_name, at: leads.next_contact_at })
    .from(leads)
    .where(gt(leads.next_contact_at, now))
    .orderBy(asc(leads.next_contact_at), asc(leads.id))
    .limit(FEED_LIMIT);
  return rows.map((row) => ({ leadId: row.id, firstName: firstName(row.full_name), at: new Date(row.at!) }));
}
