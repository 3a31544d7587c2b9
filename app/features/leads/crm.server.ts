import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { type AuditActor, changedFields, recordAudit } from "~/features/audit/audit.server";
import { leads, properties } from "~/db/schema";
import { LEAD_STATUSES, type LeadStatus } from "~/db/values";
import { isUuid } from "~/lib/ids";
import { containsPattern, pageInfo, type PageInfo, TABLE_PAGE_SIZE } from "~/lib/pagination";
import type { LeadFormValues } from "./crm-schema";
import type { Loss } from "./loss";
import { lossColumns } from "./loss.server";
import { setActor } from "./timeline-actor.server";

/**
 * The CRM's reads and writes of leads (staff only: routes check the role first). Every write
 * records an audit row in the same transaction, naming the fields that changed but never their
 * values: a lead is a person's data.
 */

export type CrmLead = {
  id: string;
  full_name: string;
  phone: string;
  email: string | null;
  interest_type: LeadFormValues["interest_type"];
  property_type: LeadFormValues["property_type"];
  origin: LeadFormValues["origin"];
  status: LeadStatus;
  notes: string | null;
  created_at: string;
  /** Issue 24: why it was lost, while its status is 'perdido' (the note is the broker's text). */
  lost_reason: string | null;
  lost_note: string | null;
  lost_at: string | null;
  /** A portal's lead (origin 'portal', issue 13): the portal's name and the temperature it gave. */
  portal_name: string | null;
  portal_temperature: string | null;
  /** The property a visit was booked for, when there is one. */
  property: { id: string; codigo: string; title: string } | null;
};

/** A stored lead's own fields as the CRM's screens send them to the browser (dates as ISO text). */
export function crmLeadFields(lead: typeof leads.$inferSelect): Omit<CrmLead, "property"> {
  return {
    id: lead.id,
    full_name: lead.full_name,
    phone: lead.phone,
    email: lead.email,
    interest_type: lead.interest_type,
    property_type: lead.property_type,
    origin: lead.origin,
    status: lead.status,
    notes: lead.notes,
    created_at: new Date(lead.created_at).toISOString(),
    lost_reason: lead.lost_reason,
    lost_note: lead.lost_note,
    lost_at: lead.lost_at ? new Date(lead.lost_at).toISOString() : null,
    portal_name: lead.portal_name,
    portal_temperature: lead.portal_temperature,
  };
}

export function parseStatusFilter(value: string | null): LeadStatus | null {
  return value && (LEAD_STATUSES as readonly string[]).includes(value) ? (value as LeadStatus) : null;
}

export type CrmLeadsPage = PageInfo & { leads: CrmLead[]; status: LeadStatus | null; search: string };

/**
 * Name, e-mail or phone contains the search, ignoring case and accents; the phone also matches
 * by its digits alone ("8499999"). The expression is the one leads_search_idx indexes (migration
 * 0004): change both or the index goes unused.
 */
function searchCondition(search: string) {
  if (!search) return undefined;
  return sql`lead_search_text(${leads.full_name}, ${leads.email}, ${leads.phone}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`;
}

/** One page of leads, newest first (spec §7), optionally one status and a search. */
export async function listCrmLeadsPage(
  db: Database,
  { status, search, page }: { status: LeadStatus | null; search: string; page: number },
  pageSize = TABLE_PAGE_SIZE,
): Promise<CrmLeadsPage> {
  const where = and(status ? eq(leads.status, status) : undefined, searchCondition(search));
  const [{ total }] = await db.select({ total: count() }).from(leads).where(where);
  const info = pageInfo(page, total, pageSize);
  if (total === 0) return { ...info, status, search, leads: [] };
  const rows = await db
    .select({
      lead: leads,
      propertyId: properties.id,
      propertyCodigo: properties.codigo,
      propertyTitle: properties.title,
    })
    .from(leads)
    .leftJoin(properties, eq(properties.id, leads.property_id))
    .where(where)
    .orderBy(desc(leads.created_at), desc(leads.id))
    .limit(pageSize)
    .offset((info.page - 1) * pageSize);
  return {
    ...info,
    status,
    search,
    leads: rows.map(({ lead, propertyId, propertyCodigo, propertyTitle }) => ({
      ...crmLeadFields(lead),
      property: propertyId ? { id: propertyId, codigo: propertyCodigo!, title: propertyTitle! } : null,
    })),
  };
}

/** The row a form's values write; the loss columns follow the status (loss.server.ts). */
function rowFrom(values: LeadFormValues, before: LeadStatus | null) {
  const { lost_reason, lost_note, ...fields } = values;
  return { ...fields, email: values.email ?? null, notes: values.notes ?? null, ...lossColumns(before, values.status, { lost_reason, lost_note }) };
}

/** The fields the CRM form edits, compared to name what an update changed. */
const EDITABLE_FIELDS = [
  "full_name",
  "phone",
  "email",
  "interest_type",
  "property_type",
  "origin",
  "status",
  "notes",
  "lost_reason",
  "lost_note",
] as const satisfies readonly (keyof LeadFormValues)[];

export async function createLead(db: Database, actor: AuditActor, values: LeadFormValues): Promise<string> {
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    const [row] = await tx.insert(leads).values(rowFrom(values, null)).returning({ id: leads.id });
    await recordAudit(tx, { actor, action: "lead.create", entity: "lead", entityId: row.id });
    return row.id;
  });
}

/** Any status may follow any other (spec §4). */
export async function updateLead(db: Database, actor: AuditActor, id: string, values: LeadFormValues): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    const [before] = await tx.select().from(leads).where(eq(leads.id, id)).for("update");
    if (!before) return false;
    const row = rowFrom(values, before.status);
    await tx.update(leads).set(row).where(eq(leads.id, id));
    const fields = changedFields(before, row, EDITABLE_FIELDS);
    await recordAudit(tx, { actor, action: "lead.update", entity: "lead", entityId: id, details: { fields } });
    return true;
  });
}

/**
 * Moves a lead to another status (pipeline board, lead page), with the reason when it is lost
 * (the action has checked it: loss.server.ts). The database trigger records the change in the
 * lead's timeline with this actor, and the reason with it; the same status again changes
 * nothing, except a lost lead's reason or note given anew.
 */
export async function changeLeadStatus(db: Database, actor: AuditActor, id: string, status: LeadStatus, loss?: Loss): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    const [before] = await tx
      .select({ status: leads.status, lost_reason: leads.lost_reason, lost_note: leads.lost_note })
      .from(leads)
      .where(eq(leads.id, id))
      .for("update");
    if (!before) return false;
    const next = { status, ...lossColumns(before.status, status, loss) };
    const fields = changedFields(before, next, ["status", "lost_reason", "lost_note"] as const);
    if (fields.length === 0) return true;
    await tx.update(leads).set(next).where(eq(leads.id, id));
    await recordAudit(tx, { actor, action: "lead.update", entity: "lead", entityId: id, details: { fields } });
    return true;
  });
}

export async function deleteLead(db: Database, actor: AuditActor, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const rows = await tx.delete(leads).where(eq(leads.id, id)).returning({ id: leads.id });
    if (rows.length === 0) return false;
    await recordAudit(tx, { actor, action: "lead.delete", entity: "lead", entityId: id });
    return true;
  });
}
