import { sql } from "drizzle-orm";
import type { AuditActor, Tx } from "~/features/audit/audit.server";

/**
 * Names who is acting for the rest of the transaction, for the database triggers that write a
 * lead's "created" and "status" timeline rows (migration 0005). Call it first thing inside any
 * transaction that inserts a lead or changes its status; without it the rows say "sistema".
 */
export async function setActor(tx: Tx, actor: AuditActor): Promise<void> {
  if (!actor) return;
  await tx.execute(
    sql`select set_config('app.actor_id', ${actor.id}, true), set_config('app.actor_name', ${actor.name ?? actor.email}, true)`,
  );
}
