import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { invitation, user, user_roles } from "~/db/schema";
import type { Role } from "~/db/values";
import { type AuditActor, recordAudit, type Tx } from "~/features/audit/audit.server";
import { enqueueMail } from "~/features/mail/outbox.server";
import { isUuid } from "~/lib/ids";
import { consume } from "~/lib/throttle.server";
import type { Runtime } from "~/features/runtime/handle.server";
import { endAccess } from "./access.server";
import { invitationMail } from "./account-mail.server";
import { insertUser, LINK_ATTEMPT_LIMIT, setCredentialPassword, TOO_MANY_LINK_ATTEMPTS } from "./accounts.server";
import { hashPassword, passwordProblem } from "./password.server";
import type { InviteInput } from "./schema";
import { newToken, tokenHash } from "./tokens.server";

/**
 * An admin invites a person by e-mail with a role. The link proves the address, so accepting it
 * makes a verified account with that role (or takes over an unverified one, whose password it
 * replaces). Only the token's sha256 is stored; the invitation and its e-mail are written in one
 * transaction.
 */

export const INVITATION_LIFETIME_HOURS = 72;
export const ALREADY_VERIFIED_MESSAGE = "Este email já tem uma conta confirmada: dê o acesso a ela na lista de usuários.";

export const INVITATION_REVOKED_MESSAGE = "Este convite foi revogado por um administrador e não vale mais. Peça um novo, se precisar.";
export const INVITATION_NOT_PENDING = "Este convite não está mais pendente: já foi aceito, revogado ou expirou.";

export type PendingInvitation = { id: string; email: string; role: Role; expiresAt: string; invitedBy: string | null };

/** Still waiting for its invitee: neither accepted nor revoked, and within its 72 hours. */
const pending = () => and(isNull(invitation.accepted_at), isNull(invitation.revoked_at), gt(invitation.expires_at, sql`now()`));

export async function inviteUser(
  runtime: Pick<Runtime, "db" | "env" | "mail">,
  inviter: { id: string; email: string; name: string },
  input: InviteInput,
): Promise<{ ok: true } | { ok: false; message: string; status: number }> {
  const { db, env } = runtime;
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ verified: user.emailVerified }).from(user).where(eq(user.email, email));
  if (existing?.verified) return { ok: false, message: ALREADY_VERIFIED_MESSAGE, status: 400 };

  const token = newToken();
  await db.transaction(async (tx) => {
    // A new invitation replaces any earlier one still open for the address (its role may differ).
    await tx
      .update(invitation)
      .set({ expires_at: sql`now()` })
      .where(and(eq(invitation.email, email), pending()));
    const [row] = await tx
      .insert(invitation)
      .values({
        email,
        role: input.role,
        token_hash: tokenHash(token),
        invited_by: inviter.id,
        expires_at: sql`now() + make_interval(hours => ${INVITATION_LIFETIME_HOURS})`,
      })
      .returning({ id: invitation.id });
    await enqueueMail(tx, { kind: "invite", to: email, ...invitationMail(env, { inviterName: inviter.name, role: input.role, token }) });
    await recordAudit(tx, {
      actor: { id: inviter.id, email: inviter.email },
      action: "user.invite",
      entity: "invitation",
      entityId: row.id,
      details: { role: input.role },
    });
  });
  runtime.mail.wake();
  return { ok: true };
}

export async function listPendingInvitations(db: Runtime["db"]): Promise<PendingInvitation[]> {
  const rows = await db
    .select({ id: invitation.id, email: invitation.email, role: invitation.role, expiresAt: invitation.expires_at, invitedBy: user.name })
    .from(invitation)
    .leftJoin(user, eq(user.id, invitation.invited_by))
    .where(pending())
    .orderBy(asc(invitation.expires_at));
  return rows.map((row) => ({ ...row, expiresAt: new Date(row.expiresAt).toISOString() }));
}

/** 'Revogar' on /crm/usuarios: the link stops working at once. */
export async function revokeInvitation(
  db: Runtime["db"],
  actor: NonNullable<AuditActor>,
  id: string,
): Promise<{ ok: true; email: string } | { ok: false; message: string; status: number }> {
  if (!isUuid(id)) return { ok: false, message: "Pedido inválido", status: 400 };
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(invitation)
      .set({ revoked_at: sql`now()` })
      .where(and(eq(invitation.id, id), pending()))
      .returning({ email: invitation.email, role: invitation.role });
    if (!revoked) return { ok: false, message: INVITATION_NOT_PENDING, status: 404 };
    await recordAudit(tx, { actor, action: "user.invite_revoke", entity: "invitation", entityId: id, details: { role: revoked.role } });
    return { ok: true, email: revoked.email };
  });
}

/**
 * Ends the pending invitations an inviter sent, when they lose admin or their account goes: an
 * invitation is made on an admin's authority, and must not outlive it.
 */
export async function revokeInvitationsBy(tx: Tx, inviterId: string, actor: AuditActor, reason: "inviter_not_admin" | "inviter_deleted") {
  const revoked = await tx
    .update(invitation)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(invitation.invited_by, inviterId), pending()))
    .returning({ id: invitation.id, role: invitation.role });
  for (const row of revoked) {
    await recordAudit(tx, { actor, action: "user.invite_revoke", entity: "invitation", entityId: row.id, details: { role: row.role, reason } });
  }
}

export type InvitationState =
  | { state: "valid"; email: string; role: Role }
  | { state: "used" }
  | { state: "revoked" }
  | { state: "expired" }
  | { state: "unknown" };

/** What an invitation link's page shows. */
export async function describeInvitation(runtime: Pick<Runtime, "db">, token: string): Promise<InvitationState> {
  if (!token || token.length > 200) return { state: "unknown" };
  const [row] = await runtime.db
    .select({
      email: invitation.email,
      role: invitation.role,
      accepted: sql<boolean>`${invitation.accepted_at} is not null`,
      revoked: sql<boolean>`${invitation.revoked_at} is not null`,
      expired: sql<boolean>`${invitation.expires_at} <= now()`,
    })
    .from(invitation)
    .where(eq(invitation.token_hash, tokenHash(token)));
  if (!row) return { state: "unknown" };
  if (row.accepted) return { state: "used" };
  if (row.revoked) return { state: "revoked" };
  if (row.expired) return { state: "expired" };
  return { state: "valid", email: row.email, role: row.role };
}

/**
 * Accepts an invitation, once (the update that marks it accepted is the check): the account is
 * created (or an unverified one taken over) verified, with the name, password and role; any
 * session it had ends. The caller signs the person in.
 */
export async function acceptInvitation(
  runtime: Pick<Runtime, "db">,
  token: string,
  input: { fullName: string; password: string },
  ip: string,
): Promise<{ ok: true; email: string } | { ok: false; message: string; status: number; state?: InvitationState["state"] }> {
  const problem = await passwordProblem(input.password);
  if (problem) return { ok: false, message: problem, status: 400 };
  if (!(await consume(runtime.db, `invite:address:${ip}`, LINK_ATTEMPT_LIMIT)).allowed) {
    return { ok: false, message: TOO_MANY_LINK_ATTEMPTS, status: 429 };
  }
  // A dead link costs a lookup, not an argon2 hash (the invitation is taken for real below).
  const before = await describeInvitation(runtime, token);
  if (before.state !== "valid") return { ok: false, message: invitationProblem(before.state), status: 410, state: before.state };
  const hash = await hashPassword(input.password);
  const name = input.fullName.trim();
  const accepted = await runtime.db.transaction(async (tx) => {
    const [taken] = await tx
      .update(invitation)
      .set({ accepted_at: sql`now()` })
      .where(and(eq(invitation.token_hash, tokenHash(token)), pending()))
      .returning({ id: invitation.id, email: invitation.email, role: invitation.role });
    if (!taken) return null;
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.email, taken.email));
    let userId: string;
    if (existing) {
      userId = existing.id;
      await tx.update(user).set({ name, emailVerified: true, updatedAt: new Date() }).where(eq(user.id, userId));
      await setCredentialPassword(tx, userId, hash);
      await endAccess(tx, userId, "password_set", { actor: { id: userId, email: taken.email } });
    } else {
      userId = await insertUser(tx, { email: taken.email, name, emailVerified: true, passwordHash: hash });
    }
    await tx
      .insert(user_roles)
      .values({ user_id: userId, role: taken.role })
      .onConflictDoUpdate({ target: user_roles.user_id, set: { role: taken.role } });
    await recordAudit(tx, {
      actor: { id: userId, email: taken.email },
      action: "user.invite_accept",
      entity: "invitation",
      entityId: taken.id,
      details: { role: taken.role },
    });
    return taken.email;
  });
  if (!accepted) {
    const now = await describeInvitation(runtime, token);
    return { ok: false, message: invitationProblem(now.state), status: 410, state: now.state };
  }
  return { ok: true, email: accepted };
}

export function invitationProblem(state: InvitationState["state"]): string {
  switch (state) {
    case "used":
      return "Este convite já foi usado. Entre com o seu email e senha.";
    case "revoked":
      return INVITATION_REVOKED_MESSAGE;
    case "expired":
      return "Este convite expirou. Peça um novo ao administrador.";
    default:
      return "Convite não encontrado. Confira se o link foi copiado inteiro.";
  }
}
