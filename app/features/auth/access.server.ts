import { and, eq, ne } from "drizzle-orm";
import { session } from "~/db/schema";
import type { AuditActor, Tx } from "~/features/audit/audit.server";
import { removeAllDevicesInTx } from "~/features/push/subscriptions.server";
import { revokeFeedInTx } from "~/features/visits/calendar.server";

/**
 * Why a person's access ends. The audit trail shows it in Portuguese (features/audit/labels.ts).
 */
export type AccessEndReason = "sign_out" | "password_reset" | "password_change" | "password_set";

/**
 * Takes back every key a person holds besides the password: their sessions (all, or all but the
 * one in use), their private calendar feed, whose secret URL opens the agency's visits just as
 * a session would (issue 21), and their devices' push alerts (issue 25: a lost phone stops
 * showing leads' names once its owner signs out elsewhere). Called at the moments a person takes their keys back: 'Sair' (which
 * ends every session) and any new password. In the caller's transaction.
 */
export async function endAccess(
  tx: Tx,
  userId: string,
  reason: AccessEndReason,
  options: { actor: AuditActor; keepSessionId?: string },
): Promise<void> {
  await tx
    .delete(session)
    .where(options.keepSessionId ? and(eq(session.userId, userId), ne(session.id, options.keepSessionId)) : eq(session.userId, userId));
  await revokeFeedInTx(tx, options.actor, userId, reason);
  await removeAllDevicesInTx(tx, options.actor, userId, reason);
}
