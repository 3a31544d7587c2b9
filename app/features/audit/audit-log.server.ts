import { count, desc } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { audit_log } from "~/db/schema";
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
  const entries = rows.map((row) => {
    const details = row.details && typeof row.details === "object" && !Array.isArray(row.details) ? (row.details as Record<string, unknown>) : null;
    return {
      id: row.id,
      at: new Date(row.at).toISOString(),
      actor: row.actor_email ?? "Sistema",
      action: row.action,
      actionLabel: actionLabel(row.action),
      record: describeRecord(row.entity, row.entity_id, details),
      details: describeDetails(details),
    };
  });
  return { entries, page, pageCount, total };
}
