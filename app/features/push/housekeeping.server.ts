import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";

/**
 * The hourly clean-up (runtime.server.ts): pushes sent or given up more than a week ago (a first
 * name and a path, kept a while for support questions), and event markers past any look-back
 * (the scheduled jobs look back a day).
 */
export const PUSH_KEEP_DAYS = 7;
const EVENT_KEEP_DAYS = 30;

export async function prunePush(db: Database): Promise<void> {
  await db.execute(sql`
    delete from push_messages
    where status in ('sent', 'failed') and created_at < now() - make_interval(days => ${PUSH_KEEP_DAYS})`);
  await db.execute(sql`delete from push_events where created_at < now() - make_interval(days => ${EVENT_KEEP_DAYS})`);
}
