import { and, eq, lt, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invitation, outbox, throttle, user, user_roles, verification } from "~/db/schema";
import { type AuditActor, recordAudit, type Tx } from "~/features/audit/audit.server";
import { revokeInvitationsBy } from "./invitations.server";
import { signInKeys } from "./sign-in-guard.server";

/**
 * Erasing an account (LGPD): an admin's 'Excluir' on /crm/usuarios, and unconfirmed sign-ups
 * after UNCONFIRMED_ACCOUNT_DAYS (the hourly housekeeping). The audit trail records that it
 * happened, by id: no copy of the name or e-mail. Staff changes the person made keep their
 * author in the trail (actor_email), as decided in 005-hardening.md.
 */

export const CANNOT_DELETE_SELF = "Você não pode excluir a sua própria conta.";
export const CANNOT_DELETE_LAST_ADMIN = "Esta é a última conta de administrador: dê esse acesso a outra pessoa antes de excluí-la.";

type Outcome = { ok: true; email: string } | { ok: false; message: string; status: number };

/** 'Excluir' on /crm/usuarios: never one's own account, never the last admin. */
export async function deleteUser(db: Database, actor: NonNullable<AuditActor>, userId: string): Promise<Outcome> {
  if (!userId || userId.length > 100) return { ok: false, message: "Pedido inválido", status: 400 };
  if (userId === actor.id) return { ok: false, message: CANNOT_DELETE_SELF, status: 400 };
  return db.transaction(async (tx) => {
    // Locking every admin's role row serialises two admins deleting each other at once.
    const admins = await tx.select({ id: user_roles.user_id }).from(user_roles).where(eq(user_roles.role, "admin")).for("update");
    if (!admins.some((row) => row.id === actor.id)) return { ok: false, message: "Acesso negado", status: 403 };
    const [target] = await tx
      .select({ id: user.id, email: user.email, role: user_roles.role })
      .from(user)
      .leftJoin(user_roles, eq(user_roles.user_id, user.id))
      .where(eq(user.id, userId));
    if (!target) return { ok: false, message: "Usuário não encontrado", status: 404 };
    if (target.role === "admin" && !admins.some((row) => row.id !== target.id)) {
      return { ok: false, message: CANNOT_DELETE_LAST_ADMIN, status: 400 };
    }
    await eraseInTx(tx, target, actor);
    await recordAudit(tx, { actor, action: "user.delete", entity: "user", entityId: target.id, details: { role: target.role ?? null } });
    return { ok: true, email: target.email };
  });
}

/**
 * Everything that names or opens the account. Sessions, the password, the role and the calendar
 * feed go with the user row (foreign keys, on delete cascade); the rest is said here. Outbox rows
 * go by recipient address (the account e-mails: confirmation, reset, invitation — see the report
 * on h/mail's redesign of how those store their links).
 */
async function eraseInTx(tx: Tx, target: { id: string; email: string }, actor: AuditActor) {
  await revokeInvitationsBy(tx, target.id, actor, "inviter_deleted");
  await tx.delete(invitation).where(eq(invitation.email, target.email));
  await tx.delete(verification).where(eq(verification.value, target.id));
  await tx.delete(outbox).where(eq(sql`lower(${outbox.to_address})`, target.email));
  // Rate-limit windows keyed by the address (sign-in, account e-mails): pruned daily anyway.
  await tx
    .delete(throttle)
    .where(
      or(
        eq(throttle.key, signInKeys.account(target.email)),
        eq(throttle.key, `account-mail:${target.email}`),
        sql`starts_with(${throttle.key}, ${signInKeys.pair(target.email, "")})`,
      ),
    );
  await tx.delete(user).where(eq(user.id, target.id));
}

/** Accounts erased per transaction: a backlog does not hold the embedded database for long. */
const BATCH = 100;

/**
 * Sign-ups never confirmed within `days` (counted from the latest sign-up with that address) are
 * erased; one audit row per round with the count. An account with a role is never touched (the
 * CLI can give one to an unconfirmed address only with --force, which confirms it).
 */
export async function expireUnconfirmedAccounts(db: Database, days: number): Promise<number> {
  let total = 0;
  for (let round = 0; round < 1000; round++) {
    const erased = await db.transaction(async (tx) => {
      const stale = await tx
        .select({ id: user.id, email: user.email })
        .from(user)
        .where(
          and(
            eq(user.emailVerified, false),
            lt(user.updatedAt, sql`now() - make_interval(days => ${days})`),
            sql`not exists (select 1 from ${user_roles} where ${user_roles.user_id} = ${user.id})`,
          ),
        )
        .limit(BATCH)
        .for("update", { skipLocked: true });
      for (const row of stale) await eraseInTx(tx, row, null);
      return stale.length;
    });
    total += erased;
    if (erased < BATCH) break;
  }
  if (total > 0) await recordAudit(db, { actor: null, action: "user.expire", entity: "user", details: { count: total, days } });
  return total;
}
