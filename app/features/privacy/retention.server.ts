import { eq, sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { app_meta, settings } from "~/db/schema";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { type AnonymizeCounts, anonymizeLeadsInTx } from "./anonymize.server";
import { ANONYMIZED, RETENTION_MONTHS } from "./markers";

/**
 * Keeping /privacidade's promise: contact data is kept for the retention period (the setting
 * "retention_months", 24 by default) after the last activity with a lead — its creation, its
 * last timeline entry (status change, note, next contact) or its last visit — and anonymised
 * after that, by a daily job (runtime.server.ts). Anonymised, not deleted: the rows stay, so the
 * reports keep counting them.
 */

/** The retention period in months; a missing or unreadable value is the default. */
export async function loadRetentionMonths(db: Database): Promise<number> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, RETENTION_MONTHS.key));
  const value = row?.value;
  return typeof value === "number" && Number.isInteger(value) && value >= RETENTION_MONTHS.min && value <= RETENTION_MONTHS.max
    ? value
    : RETENTION_MONTHS.default;
}

export async function saveRetentionMonths(db: Database, actor: AuditActor, months: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(settings)
      .values({ key: RETENTION_MONTHS.key, value: months, updated_by: actor?.id ?? null })
      .onConflictDoUpdate({ target: settings.key, set: { value: months, updated_at: sql`now()`, updated_by: actor?.id ?? null } });
    await recordAudit(tx, { actor, action: "privacy.retention_months", entity: "settings", entityId: RETENTION_MONTHS.key, details: { months } });
  });
}

/** Leads anonymised per transaction: a long backlog does not hold the embedded database for long. */
const BATCH = 200;

/** Leads past the period on `now`, not anonymised yet. */
function expiredLeadsQuery(now: Date, months: number, limit: number) {
  const cutoff = sql`(${now.toISOString()}::timestamptz - make_interval(months => ${months}::int))`;
  return sql`
    select l.id from leads l
    where l.phone <> ${ANONYMIZED.phone}
      and l.created_at < ${cutoff}
      and not exists (select 1 from lead_events e where e.lead_id = l.id and e.at >= ${cutoff})
      and not exists (select 1 from visits v where v.lead_id = l.id and (v.scheduled_at >= ${cutoff} or v.updated_at >= ${cutoff}))
    order by l.created_at, l.id
    limit ${limit}`;
}

// Both drivers answer raw SQL with { rows } (as queryRows in db/client.server.ts reads it).
const idsOf = (result: unknown): string[] => (result as { rows: { id: string }[] }).rows.map((row) => row.id);

/** How many leads the next run would anonymise (shown on /crm/privacidade). */
export async function countExpiredLeads(db: Database, now = new Date()): Promise<number> {
  const months = await loadRetentionMonths(db);
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${expiredLeadsQuery(now, months, 1_000_000)}) expired`);
  return Number(row?.n ?? 0);
}

/** Anonymises every lead past the period; one audit row per batch (actor: the system). */
export async function runRetention(db: Database, now = new Date()): Promise<AnonymizeCounts & { months: number }> {
  const months = await loadRetentionMonths(db);
  const total = { leads: 0, events: 0, visits: 0, emails: 0, months };
  for (let batch = 0; batch < 1000; batch += 1) {
    const counts = await db.transaction(async (tx) => {
      const ids = idsOf(await tx.execute(sql`${expiredLeadsQuery(now, months, BATCH)} for update skip locked`));
      return ids.length ? anonymizeLeadsInTx(tx, null, ids, { action: "privacy.retention", months }) : null;
    });
    if (!counts) break;
    total.leads += counts.leads;
    total.events += counts.events;
    total.visits += counts.visits;
    total.emails += counts.emails;
  }
  return total;
}

const LAST_RUN_KEY = "privacy_retention_last_run";
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The daily round: runs when the last run (kept in the database, so a restart or another
 * process does not repeat it) is a day old. The caller holds the job lock. Returns null when it
 * was not due.
 */
export async function runRetentionIfDue(db: Database, now = new Date()): Promise<(AnonymizeCounts & { months: number }) | null> {
  const [row] = await db.select({ value: app_meta.value }).from(app_meta).where(eq(app_meta.key, LAST_RUN_KEY));
  const last = row ? Date.parse(row.value) : NaN;
  // A little under a day, so an hourly timer does not drift a round later each day.
  if (Number.isFinite(last) && now.getTime() - last < DAY_MS - 30 * 60 * 1000) return null;
  const result = await runRetention(db, now);
  await db
    .insert(app_meta)
    .values({ key: LAST_RUN_KEY, value: now.toISOString() })
    .onConflictDoUpdate({ target: app_meta.key, set: { value: now.toISOString(), updated_at: sql`now()` } });
  return result;
}
