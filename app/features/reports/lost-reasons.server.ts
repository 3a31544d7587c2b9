import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { type DayRange, rangeInstants } from "./period";

/**
 * 'Motivos de perda' of /crm/relatorios (issue 24, decision 027): the leads lost in a period by
 * reason, beside the previous period. Only labels and counts are read, nothing personal.
 */

export type LostReasonRow = { reason: string | null; current: number; previous: number };
type Count = { reason: string | null; n: number };

/**
 * Leads lost in a range, by reason: those whose status is 'perdido' and whose loss (lost_at,
 * leads_lost_at_idx) falls in the range. A lead taken out of 'perdido' leaves the count, as its
 * reason is cleared (decision 027).
 */
export async function lostReasonCounts(db: Database, range: DayRange): Promise<Count[]> {
  const { start, end } = rangeInstants(range);
  const result = (await db.execute(
    sql`select l.lost_reason as reason, count(*)::int as n from leads l
        where l.lost_at >= ${start.toISOString()}::timestamptz and l.lost_at < ${end.toISOString()}::timestamptz and l.status = 'perdido'
        group by l.lost_reason`,
  )) as unknown as { rows: Count[] };
  return result.rows.map((row) => ({ reason: row.reason, n: Number(row.n) }));
}

/** Every reason of either period, the most frequent in the period first; 'not said' last. */
export function lostReasonRows(current: Count[], previous: Count[]): LostReasonRow[] {
  const byReason = new Map<string | null, LostReasonRow>();
  const add = (list: Count[], which: "current" | "previous") => {
    for (const row of list) {
      const entry = byReason.get(row.reason) ?? { reason: row.reason, current: 0, previous: 0 };
      entry[which] += row.n;
      byReason.set(row.reason, entry);
    }
  };
  add(current, "current");
  add(previous, "previous");
  return [...byReason.values()].sort(
    (a, b) => Number(a.reason === null) - Number(b.reason === null) || b.current - a.current || b.previous - a.previous || (a.reason ?? "").localeCompare(b.reason ?? "", "pt-BR"),
  );
}

