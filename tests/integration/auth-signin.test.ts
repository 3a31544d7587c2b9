import { hashPassword as scryptHash } from "better-auth/crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, audit_log, session, user } from "~/db/schema";
import { passwordVerificationCount } from "~/features/auth/password.server";
import { PASSWORD_MESSAGES } from "~/features/auth/schema";
import { accountDelayMs, SIGN_IN_LIMITS, TOO_MANY_SIGN_INS } from "~/features/auth/sessions.server";
import { ACCOUNT_UNDER_ATTACK } from "~/features/auth/sign-in-guard.server";
import { issueToken } from "~/features/auth/tokens.server";
import { action as resetAction } from "~/routes/auth-reset";
import { action as authAction } from "~/routes/auth";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { cookieFrom, createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { answerOf, call } from "./auth-helpers";

/**
 * Findings 2, 3, 8 and the session part of 9: the sign-in throttle counts before it checks and
 * cannot lock the owner out; passwords are argon2id, old hashes upgrade, common ones are refused;
 * sessions end after 8 h idle and 7 days in all.
 */
describe.each(DATABASE_KINDS)("sign-in on %s", (kind) => {
  let test: TestRuntime;
  beforeAll(async () => {
    test = await startTestRuntime(kind);
  });
  afterAll(async () => {
    await test.stop();
  });

  const signIn = (email: string, password: string, ip: string) =>
    call(authAction, makeRequest("/auth", { form: { intent: "login", email, password } }), ip);
  const statusOf = async (work: Promise<unknown>) => answerOf(await work).status;
  /** A reset link's token, as 'Esqueci minha senha' would e-mail it (the e-mail itself: auth-accounts.test.ts). */
  const issueResetToken = (userId: string) => issueToken(test.runtime.db, "password-reset", userId);

  it("40 parallel wrong passwords from one address get at most the pair limit of password checks", async () => {
    const victim = await createSignedInUser(test.runtime, "admin");
    const before = passwordVerificationCount();
    const results = await Promise.all(Array.from({ length: 40 }, () => signIn(victim.email, "chute-errado-1", "203.0.113.10")));
    const checks = passwordVerificationCount() - before;
    const statuses = results.map((result) => answerOf(result).status);

    expect(checks).toBeLessThanOrEqual(SIGN_IN_LIMITS.perPair.max);
    expect(statuses.filter((status) => status === 400)).toHaveLength(checks);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - checks);
    const refused = answerOf<{ error: string }>(results.find((result) => answerOf(result).status === 429));
    expect(refused.body.error).toBe(TOO_MANY_SIGN_INS);

    // The attacker's address stays refused, even with the right password…
    expect(await statusOf(signIn(victim.email, victim.password, "203.0.113.10"))).toBe(429);
    // …while the owner, elsewhere, signs in (after the account's short, capped wait).
    const owner = answerOf(await signIn(victim.email, victim.password, "198.51.100.20"));
    expect(owner.status).toBe(302);
    expect(owner.location).toBe("/crm");
    expect(cookieFrom(owner.headers!)).toMatch(/session_token=/);
  });

  it("guesses spread over addresses slow the account down but never lock its owner out", async () => {
    const victim = await createSignedInUser(test.runtime, "corretor");
    for (let i = 0; i < 5; i++) expect(await statusOf(signIn(victim.email, "chute-errado-2", "203.0.113.20"))).toBe(400);
    expect(await statusOf(signIn(victim.email, "chute-errado-2", "203.0.113.20"))).toBe(429);
    expect(await statusOf(signIn(victim.email, "chute-errado-2", "203.0.113.21"))).toBe(400);
    // A new address after the limit, with the right password: in.
    expect(await statusOf(signIn(victim.email, victim.password, "198.51.100.21"))).toBe(302);
  });

  it("many addresses failing against one account close it to new addresses for the window, never to the owner for good", async () => {
    const victim = await createSignedInUser(test.runtime, "corretor");
    // The owner signed in from home before the attack.
    expect(await statusOf(signIn(victim.email, victim.password, "198.51.100.60"))).toBe(302);

    const { max } = SIGN_IN_LIMITS.accountLock;
    const before = passwordVerificationCount();
    const guesses = await Promise.all(Array.from({ length: max + 10 }, (_, i) => signIn(victim.email, "chute-distribuido-1", `203.0.113.${100 + i}`)));
    const statuses = guesses.map((result) => answerOf(result).status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    expect(passwordVerificationCount() - before).toBeLessThanOrEqual(max);
    const refused = answerOf<{ error: string }>(guesses.find((result) => answerOf(result).status === 429));
    expect(refused.body.error).toBe(ACCOUNT_UNDER_ATTACK);

    // A new address is refused without a password check, even with the right password…
    const checks = passwordVerificationCount();
    expect(answerOf(await signIn(victim.email, victim.password, "198.51.100.61"))).toMatchObject({ status: 429, body: { error: ACCOUNT_UNDER_ATTACK } });
    expect(passwordVerificationCount()).toBe(checks);
    // …the owner's known address is not…
    expect(await statusOf(signIn(victim.email, victim.password, "198.51.100.60"))).toBe(302);
    // …and a new password by e-mail opens every address again.
    const token = await issueResetToken(victim.id);
    expect(answerOf(await call(resetAction, makeRequest("/auth/redefinir", { form: { token, password: "senha-nova-do-dono-1" } }), "198.51.100.62")).status).toBe(302);
    expect(await statusOf(signIn(victim.email, "senha-nova-do-dono-1", "198.51.100.61"))).toBe(302);

    const locked = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "auth.sign_in_locked"), eq(audit_log.entity_id, victim.id)));
    expect(locked).toHaveLength(1);
  });

  it("an address without an account meets the same bound (no hint that it has none)", async () => {
    const { max } = SIGN_IN_LIMITS.accountLock;
    const results = await Promise.all(Array.from({ length: max + 2 }, (_, i) => signIn("ninguem-tem@exemplo.com", "chute-3", `203.0.113.${200 + (i % 50)}`)));
    const refused = results.map((result) => answerOf<{ error?: string }>(result)).filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(refused.some((answer) => answer.body.error === ACCOUNT_UNDER_ATTACK)).toBe(true);
  });

  it("waits longer per account as attempts pile up, up to a cap", () => {
    const { freeAttempts, baseMs, maxMs } = SIGN_IN_LIMITS.accountDelay;
    expect(accountDelayMs(freeAttempts - 1)).toBe(0);
    expect(accountDelayMs(freeAttempts)).toBe(baseMs);
    expect(accountDelayMs(freeAttempts + 1)).toBe(2 * baseMs);
    expect(accountDelayMs(freeAttempts + 1000)).toBe(maxMs);
  });

  it("a success starts the pair's count over", async () => {
    const person = await createSignedInUser(test.runtime, "corretor");
    const ip = "203.0.113.30";
    for (let i = 0; i < 4; i++) expect(await statusOf(signIn(person.email, "chute-errado-3", ip))).toBe(400);
    expect(await statusOf(signIn(person.email, person.password, ip))).toBe(302);
    // Without the reset the 6th and 7th attempts of this pair would be refused.
    expect(await statusOf(signIn(person.email, "chute-errado-3", ip))).toBe(400);
    expect(await statusOf(signIn(person.email, "chute-errado-3", ip))).toBe(400);
  });

  it("stores argon2id (19 MiB, p=1, t=2) in PHC form", async () => {
    const person = await createSignedInUser(test.runtime, null);
    const [row] = await test.runtime.db
      .select({ hash: account.password })
      .from(account)
      .where(and(eq(account.userId, person.id), eq(account.providerId, "credential")));
    expect(row.hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
  });

  it("signs in with an old scrypt hash (even a 6-character password) and upgrades it to argon2id", async () => {
    const person = await createSignedInUser(test.runtime, "corretor");
    const legacy = await scryptHash("casa12");
    expect(legacy).toMatch(/^[0-9a-f]+:[0-9a-f]+$/);
    await test.runtime.db.update(account).set({ password: legacy }).where(eq(account.userId, person.id));

    expect(await statusOf(signIn(person.email, "casa12", "198.51.100.40"))).toBe(302);
    const [row] = await test.runtime.db.select({ hash: account.password }).from(account).where(eq(account.userId, person.id));
    expect(row.hash).toMatch(/^\$argon2id\$/);
    expect(await statusOf(signIn(person.email, "casa12", "198.51.100.40"))).toBe(302);
    expect(await statusOf(signIn(person.email, "casa13", "198.51.100.40"))).toBe(400);
  });

  it("refuses short and common passwords at sign-up, in Portuguese, storing nothing", async () => {
    const attempts: [string, string][] = [
      ["1234567", PASSWORD_MESSAGES.min],
      ["12345678", PASSWORD_MESSAGES.common],
      ["Senha123", PASSWORD_MESSAGES.common],
      ["x".repeat(129), PASSWORD_MESSAGES.max],
    ];
    for (const [password, message] of attempts) {
      const result = answerOf<{ error: string }>(
        await call(
          authAction,
          makeRequest("/auth", { form: { intent: "cadastro", fullName: "Pessoa Fraca", email: "fraca@exemplo.com", password } }),
          "198.51.100.50",
        ),
      );
      expect(result).toMatchObject({ status: 400, body: { error: message } });
    }
    expect(await test.runtime.db.select().from(user).where(eq(user.email, "fraca@exemplo.com"))).toEqual([]);
  });

  describe("session lifetimes", () => {
    let staff: TestUser;
    const open = (cookie: string) => call(dashboardLoader, makeRequest("/crm", { cookie }));
    const sessionRow = async (userId: string) =>
      (await test.runtime.db.select().from(session).where(eq(session.userId, userId)))[0];

    beforeAll(async () => {
      staff = await createSignedInUser(test.runtime, "corretor");
    });

    it("keeps a session used within 8 hours, and records the use", async () => {
      await test.runtime.db.update(session).set({ updatedAt: sql`now() - interval '7 hours'` }).where(eq(session.userId, staff.id));
      expect(answerOf(await open(staff.cookie)).status).toBe(200);
      const row = await sessionRow(staff.id);
      expect(Date.now() - new Date(row.updatedAt).getTime()).toBeLessThan(60 * 60 * 1000);
    });

    it("ends a session idle for more than 8 hours", async () => {
      await test.runtime.db.update(session).set({ updatedAt: sql`now() - interval '8 hours 1 minute'` }).where(eq(session.userId, staff.id));
      const result = answerOf(await open(staff.cookie));
      expect(result.location).toBe("/auth");
      expect(await sessionRow(staff.id)).toBeUndefined();
    });

    it("ends a session 7 days after it began, however busy", async () => {
      const fresh = await createSignedInUser(test.runtime, "corretor");
      await test.runtime.db
        .update(session)
        .set({ createdAt: sql`now() - interval '7 days 1 minute'`, updatedAt: sql`now()` })
        .where(eq(session.userId, fresh.id));
      expect(answerOf(await open(fresh.cookie)).location).toBe("/auth");
      expect(await sessionRow(fresh.id)).toBeUndefined();
    });

    it("gives a new session a cookie and an end of at most 7 days", async () => {
      const fresh = await createSignedInUser(test.runtime, "corretor");
      const row = await sessionRow(fresh.id);
      const lifetime = new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime();
      expect(lifetime).toBeLessThanOrEqual(7 * 24 * 60 * 60 * 1000 + 5000);
    });
  });
});
