import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invitation, verification } from "~/db/schema";
import { LINK_ATTEMPT_LIMIT, LINK_NOT_VALID, TOO_MANY_LINK_ATTEMPTS } from "~/features/auth/accounts.server";
import { passwordHashCount } from "~/features/auth/password.server";
import { action as inviteAction } from "~/routes/auth-invite";
import { action as resetAction } from "~/routes/auth-reset";
import { action as forgotAction } from "~/routes/auth-forgot";
import { action as usersAction } from "~/routes/crm-users";
import { createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { answerOf, call, linkIn, receiveMail, tokenOf } from "./auth-helpers";

/**
 * Issue 21, finding 3: the pages e-mailed links open (/auth/redefinir, /auth/convite) hashed the
 * new password (argon2id, ~90 ms of CPU and 19 MiB) before looking at the token, with no limit,
 * so bogus posts were a cheap way to load the server. A dead link now costs no hash, and each
 * client address gets a bounded number of attempts.
 */
describe.each(DATABASE_KINDS)("link pages' cost on %s", (kind) => {
  let test: TestRuntime;
  let smtp: TestSmtpServer;
  let admin: TestUser;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    test = await startTestRuntime(kind, { SMTP_URL: smtp.url });
    admin = await createSignedInUser(test.runtime, "admin");
  });
  afterAll(async () => {
    await test.stop();
    await smtp.stop();
  });

  let ipCounter = 0;
  const nextIp = () => `198.51.100.${++ipCounter}`;
  const bogus = () => crypto.randomBytes(32).toString("base64url");
  const reset = (token: string, ip = nextIp()) =>
    call(resetAction, makeRequest("/auth/redefinir", { form: { token, password: "uma-senha-nova-boa-1" } }), ip);
  const accept = (token: string, ip = nextIp()) =>
    call(inviteAction, makeRequest("/auth/convite", { form: { token, fullName: "Pessoa Convidada", password: "uma-senha-nova-boa-1" } }), ip);

  async function resetLink(): Promise<string> {
    const person = await createSignedInUser(test.runtime, null);
    const mark = smtp.messages.length;
    await call(forgotAction, makeRequest("/auth/esqueci", { form: { email: person.email } }), nextIp());
    return tokenOf(linkIn(await receiveMail(test.runtime, smtp, person.email, () => true, mark), "/auth/redefinir"));
  }

  async function invitationLink(): Promise<{ token: string; email: string }> {
    const email = `convite-${crypto.randomBytes(3).toString("hex")}@exemplo.com`;
    const mark = smtp.messages.length;
    await call(usersAction, makeRequest("/crm/usuarios", { form: { intent: "invite", email, role: "corretor" }, cookie: admin.cookie }));
    return { email, token: tokenOf(linkIn(await receiveMail(test.runtime, smtp, email, () => true, mark), "/auth/convite")) };
  }

  it("hashes nothing for an unknown, expired or used reset link", async () => {
    const used = await resetLink();
    expect(answerOf(await reset(used)).status).toBe(302);
    const expired = await resetLink();
    await test.runtime.db.update(verification).set({ expiresAt: sql`now() - interval '1 second'` }).where(sql`${verification.identifier} like 'password-reset:%'`);

    const before = passwordHashCount();
    for (const token of [bogus(), bogus(), expired, used, "x".repeat(500)]) {
      expect(answerOf(await reset(token))).toMatchObject({ status: 410, body: { error: LINK_NOT_VALID } });
    }
    expect(passwordHashCount() - before).toBe(0);

    // A live link still works, and costs one hash.
    const live = await resetLink();
    const beforeLive = passwordHashCount();
    expect(answerOf(await reset(live)).status).toBe(302);
    expect(passwordHashCount() - beforeLive).toBe(1);
  });

  it("hashes nothing for an unknown, expired or used invitation link", async () => {
    const used = await invitationLink();
    expect(answerOf(await accept(used.token)).status).toBe(302);
    const expired = await invitationLink();
    await test.runtime.db.update(invitation).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(invitation.email, expired.email));

    const before = passwordHashCount();
    for (const [token, state] of [
      [bogus(), "não encontrado"],
      [expired.token, "expirou"],
      [used.token, "já foi usado"],
    ]) {
      const answer = answerOf<{ error: string }>(await accept(token));
      expect(answer.status).toBe(410);
      expect(answer.body.error).toContain(state);
    }
    expect(passwordHashCount() - before).toBe(0);
  });

  it("limits the attempts per client address on both pages, with a clear Portuguese message", async () => {
    for (const [name, attempt] of [
      ["reset", reset],
      ["invite", accept],
    ] as const) {
      const ip = `203.0.113.${name === "reset" ? 70 : 71}`;
      for (let i = 0; i < LINK_ATTEMPT_LIMIT.max; i++) expect(answerOf(await attempt(bogus(), ip)).status, `${name} attempt ${i + 1}`).toBe(410);
      const refused = answerOf<{ error: string }>(await attempt(bogus(), ip));
      expect(refused.status, name).toBe(429);
      expect(refused.body.error).toBe(TOO_MANY_LINK_ATTEMPTS);
      expect(TOO_MANY_LINK_ATTEMPTS).toMatch(/^Muitas tentativas/);
    }
    // Even a good link waits out the window on that address; elsewhere it works.
    const live = await resetLink();
    expect(answerOf(await reset(live, "203.0.113.70")).status).toBe(429);
    expect(answerOf(await reset(live, "203.0.113.72")).status).toBe(302);
  });
});
