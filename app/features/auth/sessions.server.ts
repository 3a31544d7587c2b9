import { APIError } from "better-auth/api";
import { consume, isLimited, resetLimit, type Limit } from "~/lib/throttle.server";
import type { Runtime } from "~/runtime.server";
import type { SignInInput, SignUpInput } from "./schema";

/**
 * Sign-in, sign-up and sign-out as our actions use them. Results carry either the Set-Cookie
 * headers to send on, or a Portuguese message for the toast — never better-auth's English.
 */

export type AuthResult = { ok: true; headers: Headers } | { ok: false; message: string; status: number };

// A person mistyping a password meets none of these; a script guessing passwords meets them fast.
export const SIGN_IN_LIMITS = {
  perAccount: { max: 5, windowSeconds: 15 * 60 } satisfies Limit,
  perAddress: { max: 20, windowSeconds: 15 * 60 } satisfies Limit,
};
export const SIGN_UP_LIMIT: Limit = { max: 5, windowSeconds: 60 * 60 };
export const TOO_MANY_SIGN_INS = "Muitas tentativas de login. Aguarde 15 minutos e tente novamente.";
export const TOO_MANY_SIGN_UPS = "Muitas contas criadas a partir deste endereço. Tente novamente mais tarde.";

const MESSAGES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "Email ou senha inválidos",
  INVALID_PASSWORD: "Email ou senha inválidos",
  USER_ALREADY_EXISTS: "Este email já está cadastrado",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "Este email já está cadastrado",
  PASSWORD_TOO_SHORT: "Senha deve ter pelo menos 6 caracteres",
  PASSWORD_TOO_LONG: "Senha muito longa",
  INVALID_EMAIL: "Email inválido",
  EMAIL_NOT_VERIFIED: "Email não verificado",
};

/** The server's message in Portuguese, else the spec's fallback for the operation. */
export function authErrorMessage(error: unknown, fallback: "Erro ao fazer login" | "Erro ao criar conta"): string {
  if (error instanceof APIError) {
    const code = (error.body as { code?: string } | undefined)?.code;
    return (code && MESSAGES[code]) || fallback;
  }
  return "Erro ao processar solicitação";
}

const accountKey = (email: string) => `signin:account:${email.toLowerCase()}`;
const addressKey = (ip: string) => `signin:address:${ip}`;

export async function signIn(
  runtime: Pick<Runtime, "auth" | "db">,
  input: SignInInput,
  request: Request,
  ip: string,
): Promise<AuthResult> {
  const { db, auth } = runtime;
  const email = input.email.toLowerCase();
  if (
    (await isLimited(db, accountKey(email), SIGN_IN_LIMITS.perAccount)) ||
    (await isLimited(db, addressKey(ip), SIGN_IN_LIMITS.perAddress))
  ) {
    return { ok: false, message: TOO_MANY_SIGN_INS, status: 429 };
  }
  try {
    const { headers } = await auth.api.signInEmail({
      body: { email, password: input.password, rememberMe: true },
      headers: request.headers,
      returnHeaders: true,
    });
    await resetLimit(db, accountKey(email));
    return { ok: true, headers };
  } catch (error) {
    if (!(error instanceof APIError)) console.error("[auth] sign-in failed:", error);
    // Count failures only: the account's and the address's.
    await consume(db, accountKey(email), SIGN_IN_LIMITS.perAccount);
    await consume(db, addressKey(ip), SIGN_IN_LIMITS.perAddress);
    return { ok: false, message: authErrorMessage(error, "Erro ao fazer login"), status: 400 };
  }
}

export async function signUp(
  runtime: Pick<Runtime, "auth" | "db">,
  input: SignUpInput,
  request: Request,
  ip: string,
): Promise<AuthResult> {
  const { db, auth } = runtime;
  const { allowed } = await consume(db, `signup:address:${ip}`, SIGN_UP_LIMIT);
  if (!allowed) return { ok: false, message: TOO_MANY_SIGN_UPS, status: 429 };
  try {
    // Open sign-up grants no role: the new user reaches the site, not the CRM.
    const { headers } = await auth.api.signUpEmail({
      body: { email: input.email.toLowerCase(), password: input.password, name: input.fullName },
      headers: request.headers,
      returnHeaders: true,
    });
    return { ok: true, headers };
  } catch (error) {
    if (!(error instanceof APIError)) console.error("[auth] sign-up failed:", error);
    return { ok: false, message: authErrorMessage(error, "Erro ao criar conta"), status: 400 };
  }
}

/**
 * Ends every session of the signed-in user (the spec's global sign-out) and returns the headers
 * that clear the cookie in this browser.
 */
export async function signOutEverywhere(runtime: Pick<Runtime, "auth">, request: Request): Promise<Headers> {
  const { auth } = runtime;
  const session = await auth.api.getSession({ headers: request.headers });
  if (session) {
    const ctx = await auth.$context;
    await ctx.internalAdapter.deleteUserSessions(session.user.id);
  }
  const headers = new Headers();
  const ctx = await auth.$context;
  for (const cookie of [ctx.authCookies.sessionToken, ctx.authCookies.sessionData, ctx.authCookies.dontRememberToken]) {
    headers.append(
      "Set-Cookie",
      `${cookie.name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${cookie.attributes.secure ? "; Secure" : ""}`,
    );
  }
  return headers;
}
