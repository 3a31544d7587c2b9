import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { brokerDay } from "~/lib/format";
import { isUuid } from "~/lib/ids";
import { errorFields, logger } from "~/lib/logger.server";
import { getRuntime } from "~/features/runtime/handle.server";

/**
 * Views of the public property pages, per property per broker day (issue 12). The HTTP server
 * (server/app.ts) decides what is a view and calls countPropertyView; this module only adds up
 * in memory and writes the sums every FLUSH_INTERVAL_MS and at shutdown, one upsert per batch:
 * a page costs a Map update, never a database write. Nothing about the visitor is kept — not an
 * address, a cookie or an identifier — only (property, day) → count. Several processes each
 * flush their own counts: the upsert adds, so none overwrites another's.
 */

const log = logger("views");

export const FLUSH_INTERVAL_MS = 10_000;
/** Distinct (property, day) pairs held before a flush is forced (a bound on memory). */
const MAX_PENDING_KEYS = 5_000;

const pending = new Map<string, number>();
let timer: ReturnType<typeof setInterval> | undefined;
let flushing: Promise<void> | undefined;

/** One view of /imoveis/<id>, now. Unknown ids are dropped when written (no such property). */
export function countPropertyView(propertyId: string, at = new Date()): void {
  if (!isUuid(propertyId)) return;
  const key = `${propertyId.toLowerCase()}|${brokerDay(at)}`;
  pending.set(key, (pending.get(key) ?? 0) + 1);
  if (!timer) {
    timer = setInterval(() => void flushPropertyViews().catch(() => {}), FLUSH_INTERVAL_MS);
    timer.unref(); // never what keeps a process alive
  }
  if (pending.size >= MAX_PENDING_KEYS) void flushPropertyViews().catch(() => {});
}

/** Views counted but not yet written (tests). */
export function pendingViews(): number {
  let total = 0;
  for (const views of pending.values()) total += views;
  return total;
}

/**
 * Writes the counts held so far. On failure they go back into memory for the next round (a
 * database that is down for a minute loses no views). Safe to call at any time, also in
 * parallel: one write at a time per process.
 */
export async function flushPropertyViews(db?: Database): Promise<void> {
  if (flushing) await flushing.catch(() => {});
  if (pending.size === 0) return;
  const batch = [...pending];
  pending.clear();
  flushing = (async () => {
    const database = db ?? (await getRuntime()).db;
    const values = batch.map(([key, views]) => {
      const [propertyId, day] = key.split("|");
      return sql`(${propertyId}::uuid, ${day}::date, ${views}::int)`;
    });
    try {
      // Only properties that exist: a view of a deleted listing (or a made-up id) is dropped.
      await database.execute(sql`
        insert into property_views (property_id, day, views)
        select v.property_id, v.day, v.views
        from (values ${sql.join(values, sql`, `)}) as v(property_id, day, views)
        join properties p on p.id = v.property_id
        on conflict (property_id, day) do update set views = property_views.views + excluded.views`);
    } catch (error) {
      for (const [key, views] of batch) pending.set(key, (pending.get(key) ?? 0) + views);
      log.error({ ...errorFields(error), pairs: batch.length }, "views not written; kept for the next round");
      throw error;
    }
  })();
  try {
    await flushing;
  } finally {
    flushing = undefined;
  }
}

/** At shutdown: the last write, and no timer left behind. */
export async function stopPropertyViews(db?: Database): Promise<void> {
  if (timer) clearInterval(timer);
  timer = undefined;
  await flushPropertyViews(db).catch(() => {});
}
