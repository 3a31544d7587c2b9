import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { account, user } from "~/db/schema";
import { recordAudit } from "~/features/audit/audit.server";
import { type DbOrTx, enqueueMail } from "~/features/mail/outbox.server";
import { consume, type Limit } from "~/lib/throttle.server";
import type { Runtime } from "~/features/runtime/handle.server";
import { endAccess } from "./access.server";
import { existingAccountMail, passwordResetMail, verificationMail } from "./account-mail.server";
import { hashPassword, passwordProblem, verifyPassword } from "./password.server";
import type { SignUpInput } from "./schema";
import { forgetAccountAttempts } from "./sign-in-guard.server";
import { dropTokens, issueToken, peekToken, takeToken, tokenHash, type TokenPurpose } from "./tokens.server";

/**
 * Accounts that prove their e-mail: sign-up, e-mail verification, 'Esqueci minha senha' and a
 * staff member's own password change. Every answer a visitor sees is the same whether or not an
 * address has an account; what differs is only the e-mail that address receives.
 */

type Deps = Pick<Runtime, "db" | "env" | "mail">;
export type Outcome = { ok: true } | { ok: false; message: string; status: number };

export const SIGN_UP_LIMIT: Limit = { max: 5, windowSeconds: 60 * 60 };
export const FORGOT_PASSWORD_LIMIT: Limit = { max: 5, windowSeconds: 15 * 60 };
/** Account e-mails one address may receive per hour, however many addresses ask for them. */
export const ACCOUNT_MAIL_LIMIT: Limit = { max: 3, windowSeconds: 60 * 60 };
const VERIFY_ATTEMPT_LIMIT: Limit = { max: 5, windowSeconds: 15 * 60 };
const CHANGE_PASSWORD_LIMIT: Limit = { max: 5, windowSeconds: 15 * 60 };

export const TOO_MANY_SIGN_UPS = "Muitas contas criadas a partir deste endereço. Tente novamente mais tarde.";
export const TOO_MANY_REQUESTS = "Muitos pedidos seguidos. Aguarde alguns minutos e tente novamente.";
export const WRONG_SIGN_UP_PASSWORD = "Senha incorreta. Digite a senha que você escolheu ao criar a conta.";
export const WRONG_CURRENT_PASSWORD = "A senha atual não confere.";
export const LINK_NOT_VALID = "Este link não vale mais: ele expirou ou já foi usado.";
/** Posts to a page an e-mailed link opens (new password, invitation), per client address. */
export const LINK_ATTEMPT_LIMIT: Limit = { max: 10, windowSeconds: 15 * 60 };
export const TOO_MANY_LINK_ATTEMPTS = "Muitas tentativas a partir deste endereço. Aguarde 15 minutos e tente novamente.";

const mailAllowed = async (db: DbOrTx, email: string) =>
  (await consume(db, `account-mail:${email}`, ACCOUNT_MAIL_LIMIT)).allowed;

/** The credential login's password: replaced, or created for an account that had none. */
async function setCredentialPassword(tx: DbOrTx, userId: string, hash: string) {
  const updated = await tx
    .update(account)
    .set({ password: hash, updatedAt: new Date() })
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
    .returning({ id: account.id });
  if (updated.length === 0) {
    await tx.insert(account).values({ id: crypto.randomUUID(), accountId: userId, providerId: "credential", userId, password: hash });
  }
}

/** A new user row with its password (in the caller's transaction). */
export async function insertUser(
  tx: DbOrTx,
  input: { email: string; name: string; emailVerified: boolean; passwordHash: string },
): Promise<string> {
  const id = crypto.randomUUID();
  await tx.insert(user).values({ id, email: input.email, name: input.name, emailVerified: input.emailVerified });
  await setCredentialPassword(tx, id, input.passwordHash);
  return id;
}

export { setCredentialPassword };

/**
 * 'Criar Conta'. A new address gets an unverified account and a verification link. An address
 * with an unverified account: the latest sign-up wins (its name and password replace the
 * earlier ones, whose link dies), so whoever signed up first with someone else's address holds
 * nothing. A verified address: its owner is told someone tried, with a link to a new password.
 * The password is hashed in every case, so the answer takes as long either way.
 */
export async function signUp(runtime: Deps, input: SignUpInput, ip: string): Promise<Outcome> {
  const { db, env } = runtime;
  // A refused password stores nothing, not even a count.
  const problem = await passwordProblem(input.password);
  if (problem) return { ok: false, message: problem, status: 400 };
  if (!(await consume(db, `signup:address:${ip}`, SIGN_UP_LIMIT)).allowed) {
    return { ok: false, message: TOO_MANY_SIGN_UPS, status: 429 };
  }
  const email = input.email.trim().toLowerCase();
  const name = input.fullName.trim();
  const hash = await hashPassword(input.password);

  try {
    await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: user.id, name: user.name, verified: user.emailVerified })
        .from(user)
        .where(eq(user.email, email));
      if (!existing) {
        const id = await insertUser(tx, { email, name, emailVerified: false, passwordHash: hash });
        await mailAllowed(tx, email);
        const token = await issueToken(tx, "email-verification", id);
        await enqueueMail(tx, { kind: "verify-email", to: email, ...verificationMail(env, token) });
        return;
      }
      // Someone keeps asking for this address: the mails stop for a while, and nothing changes.
      if (!(await mailAllowed(tx, email))) return;
      if (!existing.verified) {
        await tx.update(user).set({ name, updatedAt: new Date() }).where(eq(user.id, existing.id));
        await setCredentialPassword(tx, existing.id, hash);
        await dropTokens(tx, "email-verification", existing.id);
        const token = await issueToken(tx, "email-verification", existing.id);
        await enqueueMail(tx, { kind: "verify-email", to: email, ...verificationMail(env, token) });
      } else {
        const token = await issueToken(tx, "password-reset", existing.id);
        await enqueueMail(tx, { kind: "signup-existing", to: email, ...existingAccountMail(env, token) });
      }
    });
  } catch (error) {
    // Two sign-ups for one new address at once: the other one created it; same answer.
    if (!isUniqueViolation(error)) throw error;
  }
  runtime.mail.wake();
  return { ok: true };
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/** A fresh verification link for an unverified account (its owner just typed the right password). */
export async function resendVerification(runtime: Deps, userId: string): Promise<void> {
  const { db, env } = runtime;
  const [found] = await db.select({ email: user.email, name: user.name, verified: user.emailVerified }).from(user).where(eq(user.id, userId));
  if (!found || found.verified) return;
  if (!(await mailAllowed(db, found.email))) return;
  await db.transaction(async (tx) => {
    const token = await issueToken(tx, "email-verification", userId);
    await enqueueMail(tx, { kind: "verify-email", to: found.email, ...verificationMail(env, token) });
  });
  runtime.mail.wake();
}

/** What a link's page shows: the address its token belongs to, or null when the link is dead. */
async function describeLink(db: DbOrTx, purpose: TokenPurpose, token: string): Promise<{ email: string } | null> {
  const userId = await peekToken(db, purpose, token);
  if (!userId) return null;
  const [found] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  return found ?? null;
}

/** What a verification link's page shows: the address it confirms, or null when the link is dead. */
export function describeVerification(runtime: Pick<Runtime, "db">, token: string): Promise<{ email: string } | null> {
  return describeLink(runtime.db, "email-verification", token);
}

/**
 * Confirms an e-mail address. The link alone is not enough: the person also types the password
 * chosen at sign-up. A link sent because of someone else's sign-up with this address (which the
 * owner might click) therefore activates nothing, and the account that becomes verified is one
 * whose password the address's owner knows.
 */
export async function confirmEmail(
  runtime: Deps,
  token: string,
  password: string,
): Promise<{ ok: true; email: string } | { ok: false; message: string; status: number; expired?: boolean }> {
  const { db } = runtime;
  if (!(await consume(db, `verify:${tokenHash(token)}`, VERIFY_ATTEMPT_LIMIT)).allowed) {
    return { ok: false, message: TOO_MANY_REQUESTS, status: 429 };
  }
  const userId = await peekToken(db, "email-verification", token);
  if (!userId) return { ok: false, message: LINK_NOT_VALID, status: 410, expired: true };
  const [found] = await db
    .select({ email: user.email, hash: account.password })
    .from(user)
    .leftJoin(account, and(eq(account.userId, user.id), eq(account.providerId, "credential")))
    .where(eq(user.id, userId));
  if (!found?.hash || !(await verifyPassword({ hash: found.hash, password }))) {
    return { ok: false, message: WRONG_SIGN_UP_PASSWORD, status: 400 };
  }
  const confirmed = await db.transaction(async (tx) => {
    if ((await takeToken(tx, "email-verification", token)) !== userId) return false;
    await tx.update(user).set({ emailVerified: true, updatedAt: new Date() }).where(eq(user.id, userId));
    await dropTokens(tx, "email-verification", userId);
    return true;
  });
  if (!confirmed) return { ok: false, message: LINK_NOT_VALID, status: 410, expired: true };
  return { ok: true, email: found.email };
}

/**
 * 'Esqueci minha senha': a reset link to an address with an account, nothing to one without,
 * and the same answer either way.
 */
export async function requestPasswordReset(runtime: Deps, rawEmail: string, ip: string): Promise<Outcome> {
  const { db, env } = runtime;
  if (!(await consume(db, `forgot:address:${ip}`, FORGOT_PASSWORD_LIMIT)).allowed) {
    return { ok: false, message: TOO_MANY_REQUESTS, status: 429 };
  }
  const email = rawEmail.trim().toLowerCase();
  const [found] = await db.select({ id: user.id, name: user.name }).from(user).where(eq(user.email, email));
  if (found && (await mailAllowed(db, email))) {
    await db.transaction(async (tx) => {
      const token = await issueToken(tx, "password-reset", found.id);
      await enqueueMail(tx, { kind: "reset-password", to: email, ...passwordResetMail(env, token) });
    });
    runtime.mail.wake();
  }
  return { ok: true };
}

/** What a reset link's page shows, or null when the link is dead. */
export function describeReset(runtime: Pick<Runtime, "db">, token: string): Promise<{ email: string } | null> {
  return describeLink(runtime.db, "password-reset", token);
}

/**
 * Sets the new password from a reset link, once. Every session of the user ends, the other reset
 * links die, and the address counts as verified: the link proved it.
 */
export async function resetPassword(
  runtime: Pick<Runtime, "db">,
  token: string,
  password: string,
  ip: string,
): Promise<{ ok: true; email: string } | { ok: false; message: string; status: number; expired?: boolean }> {
  const problem = await passwordProblem(password);
  if (problem) return { ok: false, message: problem, status: 400 };
  if (!(await consume(runtime.db, `reset:address:${ip}`, LINK_ATTEMPT_LIMIT)).allowed) {
    return { ok: false, message: TOO_MANY_LINK_ATTEMPTS, status: 429 };
  }
  // A dead link costs a lookup, not an argon2 hash (the link is taken for real below).
  if (!(await peekToken(runtime.db, "password-reset", token))) return { ok: false, message: LINK_NOT_VALID, status: 410, expired: true };
  const hash = await hashPassword(password);
  const email = await runtime.db.transaction(async (tx) => {
    const userId = await takeToken(tx, "password-reset", token);
    if (!userId) return null;
    const [found] = await tx
      .update(user)
      .set({ emailVerified: true, updatedAt: new Date() })
      .where(eq(user.id, userId))
      .returning({ email: user.email });
    if (!found) return null;
    await setCredentialPassword(tx, userId, hash);
    await endAccess(tx, userId, "password_reset", { actor: { id: userId, email: found.email } });
    await dropTokens(tx, "password-reset", userId);
    await dropTokens(tx, "email-verification", userId);
    await recordAudit(tx, { actor: { id: userId, email: found.email }, action: "user.password_reset", entity: "user", entityId: userId });
    return found.email;
  });
  if (!email) return { ok: false, message: LINK_NOT_VALID, status: 410, expired: true };
  // The owner proved the address: guesses against the account no longer keep new addresses out.
  await forgetAccountAttempts(runtime.db, email);
  return { ok: true, email };
}

/** A signed-in staff member changes their own password; their other sessions end. */
export async function changeOwnPassword(
  runtime: Pick<Runtime, "db">,
  me: { id: string; email: string; sessionId: string },
  input: { currentPassword: string; newPassword: string },
): Promise<Outcome> {
  const { db } = runtime;
  if (!(await consume(db, `password-change:${me.id}`, CHANGE_PASSWORD_LIMIT)).allowed) {
    return { ok: false, message: TOO_MANY_REQUESTS, status: 429 };
  }
  const [credential] = await db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, me.id), eq(account.providerId, "credential")));
  if (!credential?.hash || !(await verifyPassword({ hash: credential.hash, password: input.currentPassword }))) {
    return { ok: false, message: WRONG_CURRENT_PASSWORD, status: 400 };
  }
  const problem = await passwordProblem(input.newPassword);
  if (problem) return { ok: false, message: problem, status: 400 };
  const hash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await setCredentialPassword(tx, me.id, hash);
    await endAccess(tx, me.id, "password_change", { actor: { id: me.id, email: me.email }, keepSessionId: me.sessionId });
    await recordAudit(tx, { actor: { id: me.id, email: me.email }, action: "user.password", entity: "user", entityId: me.id });
  });
  return { ok: true };
}
