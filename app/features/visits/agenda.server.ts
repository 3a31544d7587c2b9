import { and, asc, count, desc, eq, gte } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties, type VISIT_STATUSES, visits } from "~/db/schema";
import { type AuditActor, changedFields, recordAudit } from "~/features/audit/audit.server";
import { BROKER_TIME_ZONE, brokerDay, endOfBrokerDay, toBrokerDateTimeInput } from "~/lib/format";
import { dayHeading } from "./days";
import { isUuid } from "~/lib/ids";
import { preferenceLabels, type VisitPreference } from "~/features/leads/visit-preferences";
import { pageInfo, type PageInfo, TABLE_PAGE_SIZE } from "~/lib/pagination";
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



/** How far back the default view keeps visits nobody marked as done or cancelled. */
const OVERDUE_DAYS = 30;

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
