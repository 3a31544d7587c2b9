import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { throttle } from "~/db/schema";

/**
 * Fixed-window counters kept in the database, so every app process counts the same attempts
 * (lead submissions per address, failed sign-ins per address and per account).
 */
export type Limit = { max: number; windowSeconds: number };

/** The database, or a transaction on it (a count that belongs with other writes). */
type DbOrTx = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Counts one attempt and says whether it is still within the limit. One atomic statement. */
export async function consume(db: DbOrTx, key: string, limit: Limit): Promise<{ allowed: boolean; count: number }> {
  const window = sql.raw(`interval '${Math.floor(limit.windowSeconds)} seconds'`);
  const [row] = await db
    .insert(throttle)
    .values({ key, count: 1 })
    .onConflictDoUpdate({
      target: throttle.key,
      set: {
        count: sql`case when ${throttle.window_started_at} < now() - ${window} then 1 else ${throttle.count} + 1 end`,
        window_started_at: sql`case when ${throttle.window_started_at} < now() - ${window} then now() else ${throttle.window_started_at} end`,
      },
    })
    .returning({ count: throttle.count });
  return { allowed: row.count <= limit.max, count: row.count };
}

/** Whether the limit is already reached, without counting an attempt. */
export async function isLimited(db: Database, key: string, limit: Limit): Promise<boolean> {
  const [row] = await db
    .select({ count: throttle.count })
    .from(throttle)
    .where(
      sql`${throttle.key} = ${key} and ${throttle.window_started_at} >= now() - ${sql.raw(`interval '${Math.floor(limit.windowSeconds)} seconds'`)}`,
    );
  return (row?.count ?? 0) >= limit.max;
}

/**
 * Gives one counted attempt back (an attempt counted before its outcome was known that turned
 * out to be no guess, e.g. a sign-in with the right password).
 */
export async function release(db: Database, key: string): Promise<void> {
  await db
    .update(throttle)
    .set({ count: sql`greatest(${throttle.count} - 1, 0)` })
    .where(eq(throttle.key, key));
}

export async function resetLimit(db: Database, key: string): Promise<void> {
  await db.delete(throttle).where(eq(throttle.key, key));
}

/** Old windows are useless; drop them now and then so the table stays small. */
export async function pruneThrottle(db: Database, olderThanSeconds = 24 * 60 * 60): Promise<void> {
  await db.delete(throttle).where(sql`${throttle.window_started_at} < now() - ${sql.raw(`interval '${Math.floor(olderThanSeconds)} seconds'`)}`);
}
