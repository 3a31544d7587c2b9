import { count, desc } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { audit_log } from "~/db/schema";
import { describeEntry } from "./describe";
import { currentNames } from "./names.server";

export const AUDIT_PAGE_SIZE = 50;

/** One entry of the audit screen, already in Portuguese: the page gets no raw details. */
export type AuditRow = {
  id: string;
  at: string;
  /** Who: a person's current name, "Sistema", "Visitante" (a refused sign-in). */
  actor: string;
  /** Their e-mail, or that the account was deleted since. */
  actorNote: string | null;
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

/** The latest entries, newest first, named as their records are called now. A page past the end shows the last page. */
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
    const described = describeEntry(row, names);
    return {
      id: row.id,
      at: new Date(row.at).toISOString(),
      actor: described.actor,
      actorNote: described.actorNote,
      actionLabel: described.action,
      record: described.record,
      details: described.details,
    };
  });
  return { entries, page, pageCount, total };
}
