import { setTimeout as sleep } from "node:timers/promises";
import { APIError } from "better-auth/api";
import { and, eq, sql } from "drizzle-orm";
import { account, session, user } from "~/db/schema";
import { errorFields, logger } from "~/lib/logger.server";
import { consume, release, resetLimit } from "~/lib/throttle.server";
import type { Runtime } from "~/features/runtime/handle.server";
import { endAccess } from "./access.server";
import { resendVerification } from "./accounts.server";
import { SESSION_IDLE_SECONDS, SESSION_MAX_SECONDS } from "./auth.server";
import { hashPassword, needsRehash } from "./password.server";
import { PASSWORD_MESSAGES, type SignInInput } from "./schema";
import {
  ACCOUNT_COUNT,
  ACCOUNT_UNDER_ATTACK,
  accountDelayMs,
  isKnownAddress,
  recordSignIn,
  SIGN_IN_LIMITS,
  type SignInEvent,
  signInKeys,
  TOO_MANY_SIGN_INS,
} from "./sign-in-guard.server";

/**
 * Sign-in and sign-out as our actions use them, and the session lifetime rules. Results carry
 * either the Set-Cookie headers to send on, or a Portuguese message for the toast — never
 * better-auth's English.
 */

const log = logger("auth");

export type AuthResult = { ok: true; headers: Headers } | { ok: false; message: string; status: number };

export { accountDelayMs, SIGN_IN_LIMITS, TOO_MANY_SIGN_INS } from "./sign-in-guard.server";
export const EMAIL_NOT_VERIFIED_MESSAGE =
  "Confirme seu email antes de entrar: enviamos um novo link de confirmação para a sua caixa de entrada.";

const MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Email ou senha inválidos",
  INVALID_PASSWORD: "Email ou senha inválidos",
  USER_ALREADY_EXISTS: "Este email já está cadastrado",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "Este email já está cadastrado",
  PASSWORD_TOO_SHORT: PASSWORD_MESSAGES.min,
  PASSWORD_TOO_LONG: PASSWORD_MESSAGES.max,
  INVALID_EMAIL: "Email inválido",
  EMAIL_NOT_VERIFIED: EMAIL_NOT_VERIFIED_MESSAGE,
};

/** The server's message in Portuguese, else the spec's fallback for the operation. */
export function authErrorMessage(error: unknown, fallback: "Erro ao fazer login" | "Erro ao criar conta"): string {
  if (error instanceof APIError) {
    const code = (error.body as { code?: string } | undefined)?.code;
    return (code && MESSAGES[code]) || fallback;
  }
  return "Erro ao processar solicitação";
}

/**
 * The sign-in form's work: the limits of sign-in-guard.server.ts before the password is checked,
 * and one audit row per attempt that reached them (and per limit that started refusing).
 */
export async function signIn(
  runtime: Pick<Runtime, "auth" | "db" | "env" | "mail">,
  input: SignInInput,
  request: Request,
  ip: string,
): Promise<AuthResult> {
  const { db, auth } = runtime;
  const email = input.email.trim().toLowerCase();
  const [owner] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
  const userId = owner?.id ?? null;
  const record = (event: SignInEvent) => recordSignIn(db, event, email, ip);

  const pair = await consume(db, signInKeys.pair(email, ip), SIGN_IN_LIMITS.perPair);
  const address = await consume(db, signInKeys.address(ip), SIGN_IN_LIMITS.perAddress);
  if (!pair.allowed || !address.allowed) {
    // Recorded once per window: each attempt gets its own count, so one is the first over.
    if (pair.count === SIGN_IN_LIMITS.perPair.max + 1) await record({ kind: "throttled", userId, limit: "pair" });
    else if (address.count === SIGN_IN_LIMITS.perAddress.max + 1) await record({ kind: "throttled", userId, limit: "address" });
    return { ok: false, message: TOO_MANY_SIGN_INS, status: 429 };
  }
  const accountAttempts = await consume(db, signInKeys.account(email), ACCOUNT_COUNT);
  const { max } = SIGN_IN_LIMITS.accountLock;
  if (accountAttempts.count === max + 1) await record({ kind: "locked", userId });
  if (accountAttempts.count > max && !(userId && (await isKnownAddress(db, userId, ip)))) {
    return { ok: false, message: ACCOUNT_UNDER_ATTACK, status: 429 };
  }
  const delay = accountDelayMs(accountAttempts.count - 1);
  if (delay > 0) await sleep(delay);

  // Not a guess after all: give the counted attempt back (the pair starts over).
  const forgive = async () => {
    await resetLimit(db, signInKeys.pair(email, ip));
    await release(db, signInKeys.address(ip));
    await release(db, signInKeys.account(email));
  };

  try {
    const { headers, response } = await auth.api.signInEmail({
      body: { email, password: input.password, rememberMe: true },
      headers: request.headers,
      returnHeaders: true,
    });
    await forgive();
    await record({ kind: "success", userId: response.user.id });
    await upgradeHashIfOld(runtime, response.user.id, input.password);
    return { ok: true, headers };
  } catch (error) {
    if (!(error instanceof APIError)) {
      log.error(errorFields(error), "sign-in failed");
      return { ok: false, message: authErrorMessage(error, "Erro ao fazer login"), status: 400 };
    }
    const code = (error.body as { code?: string } | undefined)?.code;
    if (code === "EMAIL_NOT_VERIFIED") {
      // better-auth says so only after the password matched: the owner, who needs a new link.
      await forgive();
      await record({ kind: "failed", userId, reason: "unverified" });
      if (userId) await resendVerification(runtime, userId);
      return { ok: false, message: EMAIL_NOT_VERIFIED_MESSAGE, status: 403 };
    }
    await record({ kind: "failed", userId, reason: userId ? "wrong_password" : "unknown_account" });
    return { ok: false, message: authErrorMessage(error, "Erro ao fazer login"), status: 400 };
  }
}

/** After a sign-in with an old (scrypt) or weaker hash, store argon2id in its place. */
async function upgradeHashIfOld(runtime: Pick<Runtime, "db">, userId: string, password: string) {
  const { db } = runtime;
  const [credential] = await db
    .select({ id: account.id, password: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")));
  if (!credential?.password || !needsRehash(credential.password)) return;
  const hash = await hashPassword(password);
  // Only if nobody changed it meanwhile.
  await db
    .update(account)
    .set({ password: hash, updatedAt: new Date() })
    .where(and(eq(account.id, credential.id), eq(account.password, credential.password)));
}

/** How often a session's last use is written down (a write per request would be wasteful). */
const TOUCH_AFTER_SECONDS = 60;

/**
 * The idle and absolute ends of a session. A session past either is deleted (so its cookie is
 * worthless from now on) and false comes back; otherwise its last use is recorded now and then.
 */
export async function checkSessionLifetime(
  runtime: Pick<Runtime, "db">,
  current: { id: string; createdAt: Date | string; updatedAt: Date | string },
): Promise<boolean> {
  const now = Date.now();
  const createdAt = new Date(current.createdAt).getTime();
  const lastUsed = new Date(current.updatedAt).getTime();
  if (now - createdAt > SESSION_MAX_SECONDS * 1000 || now - lastUsed > SESSION_IDLE_SECONDS * 1000) {
    await runtime.db.delete(session).where(eq(session.id, current.id));
    return false;
  }
  if (now - lastUsed > TOUCH_AFTER_SECONDS * 1000) {
    await runtime.db.update(session).set({ updatedAt: sql`now()` }).where(eq(session.id, current.id));
  }
  return true;
}

/**
 * Ends every session of the signed-in user (the spec's global sign-out) and returns the headers
 * that clear the cookie in this browser.
 */
export async function signOutEverywhere(runtime: Pick<Runtime, "auth" | "db">, request: Request): Promise<Headers> {
  const current = await runtime.auth.api.getSession({ headers: request.headers });
  if (current) {
    const { id, email } = current.user;
    // The calendar feed's URL goes too: 'Sair' is how a person takes back every key (issue 21).
    await runtime.db.transaction((tx) => endAccess(tx, id, "sign_out", { actor: { id, email } }));
  }
  return clearSessionCookie(runtime);
}

/** Set-Cookie headers that remove the session cookies from this browser. */
export async function clearSessionCookie(runtime: Pick<Runtime, "auth">): Promise<Headers> {
  const headers = new Headers();
  const ctx = await runtime.auth.$context;
  for (const cookie of [ctx.authCookies.sessionToken, ctx.authCookies.sessionData, ctx.authCookies.dontRememberToken]) {
    headers.append(
      "Set-Cookie",
      `${cookie.name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${cookie.attributes.secure ? "; Secure" : ""}`,
    );
  }
  return headers;
}

/**
 * Signs a person in right after they proved who they are by other means (a verification link
 * with their password, an accepted invitation): the same path as the form, minus the throttle.
 */
export async function signInAfterProof(
  runtime: Pick<Runtime, "auth">,
  email: string,
  password: string,
  request: Request,
): Promise<{ headers: Headers; userId: string }> {
  const { headers, response } = await runtime.auth.api.signInEmail({
    body: { email, password, rememberMe: true },
    headers: request.headers,
    returnHeaders: true,
  });
  return { headers, userId: response.user.id };
}
