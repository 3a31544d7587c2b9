import { sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { addDays, type DayRange, type Period, rangeInstants } from "./period";

/**
 * The reports' audience figures: views of the listings' pages (property_views, one row per
 * listing and day) and taps on the WhatsApp buttons (whatsapp_clicks). A decade holds millions
 * of daily rows (issue 26), so a range reads its whole calendar months from the monthly roll-up
 * (property_views_monthly, kept by a trigger) and only the days at either end from the daily
 * rows: a ten-year report sums about 5,000 listings × 120 months, not 5 million days.
 */

export const MOST_VIEWED_LIMIT = 20;

type Row = Record<string, unknown>;
const rows = async <T = Row>(db: Database, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

const monthStart = (day: string) => `${day.slice(0, 8)}01`;

/** (property_id, views) rows whose sum is each listing's views in the range. */
export function viewRows(range: DayRange): SQL {
  // Whole months: from the first 1st on or after `from`, up to (not including) the month of the day after `to`.
  const firstWhole = range.from.endsWith("-01") ? range.from : monthStart(addDays(monthStart(range.from), 32));
  const endWhole = monthStart(addDays(range.to, 1));
  if (firstWhole >= endWhole) {
    return sql`select property_id, views from property_views where day between ${range.from}::date and ${range.to}::date`;
  }
  return sql`
    select property_id, views from property_views_monthly where month >= ${firstWhole}::date and month < ${endWhole}::date
    union all
    select property_id, views from property_views where day >= ${range.from}::date and day < ${firstWhole}::date
    union all
    select property_id, views from property_views where day >= ${endWhole}::date and day <= ${range.to}::date`;
}

export async function totalViews(db: Database, range: DayRange): Promise<number> {
  const [row] = await rows(db, sql`select coalesce(sum(v.views), 0)::int as n from (${viewRows(range)}) v`);
  return num(row.n);
}

/** WhatsApp taps of a range (by the broker's day, as leads). */
function tapsIn(range: DayRange): SQL {
  const { start, end } = rangeInstants(range);
  return sql`w.at >= ${start.toISOString()}::timestamptz and w.at < ${end.toISOString()}::timestamptz`;
}

export async function totalWhatsapp(db: Database, range: DayRange): Promise<number> {
  const [row] = await rows(db, sql`select count(*)::int as n from whatsapp_clicks w where ${tapsIn(range)}`);
  return num(row.n);
}

/** The most viewed listings of the period, with their leads and taps, and their views in the previous period. */
export async function mostViewed(db: Database, period: Period, leadsIn: (range: DayRange) => SQL) {
  const found = await rows<{ codigo: string; title: string; views: number; leads: number; whatsapp: number; previous_views: number }>(
    db,
    sql`
      with current_views as (
        select v.property_id, sum(v.views)::int as views from (${viewRows(period)}) v group by v.property_id
      )
      select p.codigo, p.title, v.views,
        (select count(*)::int from leads l where l.property_id = p.id and ${leadsIn(period)}) as leads,
        (select count(*)::int from whatsapp_clicks w where w.property_id = p.id and ${tapsIn(period)}) as whatsapp,
        (select coalesce(sum(pv.views), 0)::int from (${viewRows(period.previous)}) pv where pv.property_id = p.id) as previous_views
      from current_views v join properties p on p.id = v.property_id
      where v.views > 0
      order by v.views desc, p.codigo
      limit ${MOST_VIEWED_LIMIT}`,
  );
  return found.map((row) => ({ codigo: row.codigo, title: row.title, views: num(row.views), leads: num(row.leads), whatsapp: num(row.whatsapp), previousViews: num(row.previous_views) }));
}
