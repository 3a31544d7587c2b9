import { count, desc, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { audit_log, invitation, leads, user } from "~/db/schema";
import { isUuid } from "~/lib/ids";
import { actionLabel, describeDetails, describeRecord } from "./labels";

export const AUDIT_PAGE_SIZE = 50;

/** One line of the audit screen, already in Portuguese: the page gets no raw details. */
export type AuditRow = {
  id: string;
  at: string;
  actor: string;
  action: string;
  actionLabel: string;
  record: string;
  details: string[];
};

export type AuditPage = { entries: AuditRow[]; page: number; pageCount: number; total: number };

/** `?pagina=` as a page number; anything else is the first page. */
export function parsePage(value: string | null): number {
  if (!value || !/^\d{1,6}$/.test(value)) return 1;
  return Math.max(1, Number(value));
}

/** The latest entries, newest first. A page past the end shows the last page. */
export async function listAuditEntries(db: Database, requestedPage: number): Promise<AuditPage> {
  const [{ total }] = await db.select({ total: count() }).from(audit_log);
  const pageCount = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(requestedPage, pageCount);
  const rows = await db
    .select()
    .from(audit_log)
    .orderBy(desc(audit_log.at), desc(audit_log.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  const names = await currentNames(db, rows);
  const entries = rows.map((row) => {
    const details = row.details && typeof row.details === "object" && !Array.isArray(row.details) ? (row.details as Record<string, unknown>) : null;
    return {
      id: row.id,
      at: new Date(row.at).toISOString(),
      actor: row.actor_email ?? "Sistema",
      action: row.action,
      actionLabel: actionLabel(row.action),
      record: describeRecord(row.entity, row.entity_id, details, row.entity_id ? names.get(`${row.entity}:${row.entity_id}`) : undefined),
      details: describeDetails(details),
    };
  });
  return { entries, page, pageCount, total };
}

/**
 * What the records on this page are called now (a lead's name, a user's or invitee's e-mail),
 * read from the records themselves: the trail stores no personal data, and a record deleted
 * since shows its short id only.
 */
async function currentNames(db: Database, rows: { entity: string; entity_id: string | null }[]): Promise<Map<string, string>> {
  const ids = (entity: string, uuidOnly = true) => [
    ...new Set(rows.filter((row) => row.entity === entity && row.entity_id && (!uuidOnly || isUuid(row.entity_id))).map((row) => row.entity_id!)),
  ];
  const leadIds = ids("lead");
  const userIds = ids("user", false);
  const invitationIds = ids("invitation");
  const [leadRows, userRows, invitationRows] = await Promise.all([
    leadIds.length ? db.select({ id: leads.id, name: leads.full_name }).from(leads).where(inArray(leads.id, leadIds)) : [],
    userIds.length ? db.select({ id: user.id, name: user.email }).from(user).where(inArray(user.id, userIds)) : [],
    invitationIds.length ? db.select({ id: invitation.id, name: invitation.email }).from(invitation).where(inArray(invitation.id, invitationIds)) : [],
  ]);
  const names = new Map<string, string>();
  for (const row of leadRows) names.set(`lead:${row.id}`, row.name);
  for (const row of userRows) names.set(`user:${row.id}`, row.name);
  for (const row of invitationRows) names.set(`invitation:${row.id}`, row.name);
  return names;
}
