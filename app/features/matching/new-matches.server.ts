import { sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { lead_matches_sent, lead_profiles, leads, properties, property_price_drops, property_status_events } from "~/db/schema";
import { fits, softScore } from "./match.server";

/** The dashboard's 'Novos matches', with the predicate and the ranking of match.server.ts. */

export const NEW_MATCHES_DAYS = 7;
export const NEW_MATCHES_LIMIT = 10;
export const NEW_MATCHES_COUNT_CAP = 1000;

const lp = lead_profiles;
const p = properties;

export type NewMatch = {
  leadId: string;
  full_name: string;
  propertyId: string;
  codigo: string;
  title: string;
  price: number;
  why: "published" | "price";
  at: string;
  score: number;
};

/**
 * 'Novos matches' (dashboard): pairs of an open lead and an available listing that was published
 * (its status became 'disponivel') or got cheaper in the last `days`, that the listing fits and
 * that were not sent yet. The recent listings are few (property_status_events_to_status_idx,
 * property_price_drops_at_idx); each is joined to the profiles through lead_profiles_match_idx.
 */
export async function newMatches(db: Database, now: Date, days = NEW_MATCHES_DAYS, limit = NEW_MATCHES_LIMIT): Promise<{ total: number; capped: boolean; items: NewMatch[] }> {
  const since = new Date(now.getTime() - days * 86_400_000);
  // The listings changed lately, each once with its latest change: few rows, read by index.
  const recentOf = (tail: SQL) => sql`(
    select property_id, max(at) as at, bool_or(dropped) as dropped from (
      select ${property_status_events.property_id} as property_id, ${property_status_events.at} as at, false as dropped
      from ${property_status_events}
      where ${property_status_events.to_status} = 'disponivel' and ${property_status_events.kind} <> 'backfill' and ${property_status_events.at} >= ${since}
      union all
      select ${property_price_drops.property_id}, ${property_price_drops.at}, true
      from ${property_price_drops} where ${property_price_drops.at} >= ${since}
    ) as changes group by property_id ${tail}
  ) as recent`;
  const recent = recentOf(sql``);
  // For the list, only the latest changed listings (each gives up to `limit` rows anyway).
  const latest = recentOf(sql`order by max(at) desc, property_id limit ${limit}`);
  const open = sql`${leads.status} not in ('convertido', 'perdido')
      and not exists (select 1 from ${lead_matches_sent} where ${lead_matches_sent.lead_id} = ${lp.lead_id} and ${lead_matches_sent.property_id} = ${p.id})`;
  const [countResult, rowsResult] = await Promise.all([
    // Counted up to NEW_MATCHES_COUNT_CAP pairs ('1000+'): the figure is a signal, not a report.
    db.execute(sql`select count(*)::int as total from (
      select 1 from ${recent}
      join ${p} on ${p.id} = recent.property_id
      join ${lp} on ${lp.purpose} = ${p.purpose} and ${fits}
      join ${leads} on ${leads.id} = ${lp.lead_id}
      where ${open}
      limit ${NEW_MATCHES_COUNT_CAP}) as capped`),
    // Newest change first; for each listing its best profiles, walked by index (lateral), so the
    // statement stops once it has enough rows. A lead with two fitting profiles gives two rows:
    // read a few more, keep one per pair.
    db.execute(sql`
      select picked.*, recent.at as at, recent.dropped as dropped, ${p.codigo} as codigo, ${p.title} as title, ${p.price} as price, ${p.id} as property_id
      from ${latest}
      join ${p} on ${p.id} = recent.property_id
      cross join lateral (
        select ${lp.lead_id} as lead_id, ${leads.full_name} as full_name, ${softScore} as score
        from ${lp} join ${leads} on ${leads.id} = ${lp.lead_id}
        where ${lp.purpose} = ${p.purpose} and ${fits} and ${open}
        order by score desc, ${lp.lead_id}
        limit ${limit * 3}
      ) as picked
      order by recent.at desc, ${p.id}, picked.score desc
      limit ${limit * 3}`),
  ]);
  const rowsOf = (result: unknown) => ((result as { rows?: Record<string, unknown>[] }).rows ?? (result as Record<string, unknown>[]));
  const seen = new Set<string>();
  const items: NewMatch[] = [];
  for (const row of rowsOf(rowsResult)) {
    const key = `${row.lead_id}:${row.property_id}`;
    if (seen.has(key) || items.length >= limit) continue;
    seen.add(key);
    items.push({
      leadId: String(row.lead_id),
      full_name: String(row.full_name),
      propertyId: String(row.property_id),
      codigo: String(row.codigo),
      title: String(row.title),
      price: Number(row.price),
      why: row.dropped === true || row.dropped === "t" ? "price" : "published",
      at: new Date(row.at as string).toISOString(),
      score: Number(row.score),
    });
  }
  const total = Number(rowsOf(countResult)[0]?.total ?? 0);
  return { total, capped: total >= NEW_MATCHES_COUNT_CAP, items };
}
