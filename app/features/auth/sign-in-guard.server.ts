import { and, eq, gt, like, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { audit_log } from "~/db/schema";
import { recordAudit } from "~/features/audit/audit.server";
import { type Limit, resetLimit } from "~/lib/throttle.server";

/**
 * What stands between a guess and the password check, and what the audit trail keeps of each
 * attempt (ASVS 16.3.1). Attempts are counted before the password is checked, one atomic
 * statement each, so parallel guesses cannot slip past a limit:
 * - per (account, address) pair: an attacker's address is stopped, the owner's is not;
 * - per address: one address guessing many accounts;
 * - per account, across addresses: each check waits longer (capped), and past `accountLock.max`
 *   attempts in the window only addresses the owner signed in from lately are let through. A
 *   stranger can keep new addresses out for a window at a time, never the owner for good: a
 *   known address still works, and a new password by e-mail starts the count over.
 */
export const SIGN_IN_LIMITS = {
  perPair: { max: 5, windowSeconds: 15 * 60 } satisfies Limit,
  perAddress: { max: 20, windowSeconds: 15 * 60 } satisfies Limit,
  accountDelay: { windowSeconds: 15 * 60, freeAttempts: 5, baseMs: 1000, maxMs: 10_000 },
  accountLock: { max: 30, knownAddressDays: 30 },
};

export const TOO_MANY_SIGN_INS = "Muitas tentativas de login. Aguarde 15 minutos e tente novamente.";
export const ACCOUNT_UNDER_ATTACK =
  "Muitas tentativas de entrar nesta conta, de vários endereços. Por segurança, aguarde 15 minutos ou crie uma nova senha em 'Esqueci minha senha'.";

export const signInKeys = {
  pair: (email: string, ip: string) => `signin:pair:${email}:${ip}`,
  address: (ip: string) => `signin:address:${ip}`,
  account: (email: string) => `signin:account:${email}`,
};

/** Every count's window: the account's counter is never refused by `consume` itself. */
export const ACCOUNT_COUNT: Limit = { max: Number.MAX_SAFE_INTEGER, windowSeconds: SIGN_IN_LIMITS.accountDelay.windowSeconds };

/** The wait before checking a password, given how many attempts the account saw before this one. */
export function accountDelayMs(previousAttempts: number): number {
  const { freeAttempts, baseMs, maxMs } = SIGN_IN_LIMITS.accountDelay;
  if (previousAttempts < freeAttempts) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(previousAttempts - freeAttempts, 20));
}

/** Whether the account's owner signed in from this address lately (the trail keeps them 90 days). */
export async function isKnownAddress(db: Database, userId: string, ip: string): Promise<boolean> {
  const [row] = await db
    .select({ id: audit_log.id })
    .from(audit_log)
    .where(
      and(
        eq(audit_log.action, "auth.sign_in"),
        eq(audit_log.entity_id, userId),
        sql`${audit_log.details}->>'ip' = ${ip}`,
        gt(audit_log.at, sql`now() - make_interval(days => ${SIGN_IN_LIMITS.accountLock.knownAddressDays})`),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** How long sign-in records (an address is personal data) stay in the audit trail. */
export const SIGN_IN_RECORD_DAYS = 90;

export async function pruneSignInRecords(db: Database): Promise<void> {
  await db.delete(audit_log).where(and(like(audit_log.action, "auth.%"), lt(audit_log.at, sql`now() - make_interval(days => ${SIGN_IN_RECORD_DAYS})`)));
}

/** A new password proves the owner: the account's count across addresses starts over. */
export function forgetAccountAttempts(db: Database, email: string): Promise<void> {
  return resetLimit(db, signInKeys.account(email.trim().toLowerCase()));
}

export type SignInEvent =
  | { kind: "success"; userId: string }
  | { kind: "failed"; userId: string | null; reason: "wrong_password" | "unverified" | "unknown_account" }
  | { kind: "throttled"; userId: string | null; limit: "pair" | "address" }
  | { kind: "locked"; userId: string | null };

const ACTIONS = { success: "auth.sign_in", failed: "auth.sign_in_failed", throttled: "auth.sign_in_throttled", locked: "auth.sign_in_locked" } as const;

/**
 * One audit row for a sign-in attempt: the account (its id; for an address without an account,
 * a masked form of what was typed), the client's address as the server resolved it, the time.
 * Never a password: only the e-mail field is looked at, and only after it passed as an address.
 */
export async function recordSignIn(db: Database, event: SignInEvent, typedEmail: string, ip: string): Promise<void> {
  const details: Record<string, string> = { ip: ip.slice(0, 64) };
  if (event.kind === "failed") details.reason = event.reason;
  if (event.kind === "throttled") details.limit = event.limit;
  if (!event.userId) details.email = maskEmail(typedEmail);
  await recordAudit(db, { actor: null, action: ACTIONS[event.kind], entity: "user", entityId: event.userId, details });
}

/**
 * "n…@exemplo.com.br": enough to see which domain is being tried, not who (an address without an
 * account is someone's personal data we have no reason to keep), and never long.
 */
export function maskEmail(typed: string): string {
  const [local, domain = ""] = typed.trim().toLowerCase().split(/@(?=[^@]*$)/);
  const cleanDomain = domain.replace(/[^a-z0-9.-]/g, "").slice(0, 60);
  return `${(local.match(/[a-z0-9]/)?.[0] ?? "?")}…@${cleanDomain || "?"}`;
}
