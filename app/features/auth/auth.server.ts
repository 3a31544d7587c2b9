import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Database } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import * as schema from "~/db/schema";
import { endAccess } from "./access.server";
import { ensureAuthSecret } from "./auth-secret.server";
import { assertAcceptablePassword, hashPassword, verifyPassword } from "./password.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "./schema";

/**
 * Session lifetimes (ASVS 7.3): a session ends after 8 hours without use and 7 days after it
 * began, whatever happens. better-auth keeps the absolute end (expiresIn, never extended: the
 * refresh is off); the idle end is ours (sessions.server.ts, `checkSessionLifetime`), because
 * better-auth's sliding refresh would need every loader to pass its renewed cookie on.
 */
export const SESSION_MAX_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_IDLE_SECONDS = 8 * 60 * 60;

/**
 * better-auth owns users, password hashes and sessions (in the database, behind an HttpOnly
 * cookie). We call it from our own actions (app/routes/auth.tsx) rather than mounting its HTTP
 * handler, so the only sign-in surface is our form, with our messages and our throttle.
 */
/** Auth for this configuration: the secret from AUTH_SECRET or DATA_DIR, cookies Secure on https. */
export function createAuthFromEnv(db: Database, env: Pick<Env, "dataDir" | "AUTH_SECRET" | "publicUrl">) {
  return createAuth({
    db,
    secret: ensureAuthSecret(env.dataDir, env.AUTH_SECRET),
    baseURL: env.publicUrl,
    secureCookies: env.publicUrl.startsWith("https://"),
  });
}

export function createAuth(options: { db: Database; secret: string; baseURL: string; secureCookies: boolean }) {
  return betterAuth({
    appName: "CRM do Corretor",
    baseURL: options.baseURL,
    secret: options.secret,
    trustedOrigins: [options.baseURL],
    database: drizzleAdapter(options.db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        rateLimit: schema.rateLimit,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      // Sign-up is ours (accounts.server.ts): it answers the same whether or not the address
      // exists, and the account waits for its e-mail to be proven before anyone signs in.
      disableSignUp: true,
      autoSignIn: false,
      requireEmailVerification: true,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    session: {
      expiresIn: SESSION_MAX_SECONDS,
      disableSessionRefresh: true,
      // No cookie cache: a revoked session (Sair ends them all) stops working on the next request.
      cookieCache: { enabled: false },
    },
    rateLimit: { enabled: true, storage: "database" },
    advanced: {
      useSecureCookies: options.secureCookies,
      // Our HTTP server overwrites this header with the connecting address (server/app.ts).
      ipAddress: { ipAddressHeaders: ["x-client-ip"] },
    },
    telemetry: { enabled: false },
    // Its warnings ("User not found" on each wrong sign-in) would flood the log; failures are
    // counted by our own throttle.
    logger: { level: "error" },
  });
}

export type Auth = ReturnType<typeof createAuth>;

export { ensureAuthSecret };

/**
 * Creates a user whose e-mail counts as verified, with an email/password login: for whoever
 * already proves the address by other means (the CLI's operator, the first admin, tests).
 */
export async function createUserWithPassword(
  auth: Auth,
  input: { email: string; password: string; name: string },
) {
  await assertAcceptablePassword(input.password);
  const ctx = await auth.$context;
  const email = input.email.trim().toLowerCase();
  if (await ctx.internalAdapter.findUserByEmail(email)) {
    throw new Error(`Já existe um usuário com o email ${email}`);
  }
  const hash = await ctx.password.hash(input.password);
  const created = await ctx.internalAdapter.createUser(
    { email, name: input.name.trim(), emailVerified: true },
    { method: "admin" },
  );
  await ctx.internalAdapter.linkAccount({
    userId: created.id,
    providerId: "credential",
    accountId: created.id,
    password: hash,
  });
  return { id: created.id, email: created.email, name: created.name };
}

/**
 * Replaces a user's password and ends their sessions and calendar feed (a changed password should
 * sign them out everywhere).
 */
export async function setUserPassword(runtime: { auth: Auth; db: Database }, email: string, password: string) {
  const { auth, db } = runtime;
  await assertAcceptablePassword(password);
  const ctx = await auth.$context;
  const found = await ctx.internalAdapter.findUserByEmail(email.trim().toLowerCase(), {
    includeAccounts: true,
  });
  if (!found) throw new Error(`Usuário não encontrado: ${email}`);
  const hash = await ctx.password.hash(password);
  if (found.accounts.some((account) => account.providerId === "credential")) {
    await ctx.internalAdapter.updatePassword(found.user.id, hash);
  } else {
    await ctx.internalAdapter.linkAccount({
      userId: found.user.id,
      providerId: "credential",
      accountId: found.user.id,
      password: hash,
    });
  }
  await db.transaction((tx) => endAccess(tx, found.user.id, "password_set", { actor: null }));
  return found.user;
}
