import crypto from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, invitation, session, user, user_roles, verification } from "~/db/schema";
import {
  LINK_NOT_VALID,
  WRONG_CURRENT_PASSWORD,
  WRONG_SIGN_UP_PASSWORD,
} from "~/features/auth/accounts.server";
import { ALREADY_VERIFIED_MESSAGE } from "~/features/auth/invitations.server";
import { PASSWORD_MESSAGES } from "~/features/auth/schema";
import { EMAIL_NOT_VERIFIED_MESSAGE } from "~/features/auth/sessions.server";
import { UNVERIFIED_ROLE_MESSAGE } from "~/features/auth/users.server";
import { action as authAction } from "~/routes/auth";
import { action as forgotAction } from "~/routes/auth-forgot";
import { action as inviteAction, loader as inviteLoader } from "~/routes/auth-invite";
import { action as resetAction, loader as resetLoader } from "~/routes/auth-reset";
import { action as verifyAction, loader as verifyLoader } from "~/routes/auth-verify";
import { action as accountAction } from "~/routes/crm-account";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { action as usersAction, loader as usersLoader } from "~/routes/crm-users";
import { cookieFrom, createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { answerOf, call, linkIn, receiveMail, tokenOf } from "./auth-helpers";

/**
 * Deliverable 2: accounts that prove their e-mail. Every e-mail is read from a real SMTP server
 * and its link followed through the real loaders and actions.
 */
describe.each(DATABASE_KINDS)("accounts by e-mail on %s", (kind) => {
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
  /** A fresh address per call: the per-address limits are tested elsewhere. */
  const nextIp = () => `198.51.100.${++ipCounter}`;
  const uniqueEmail = (name: string) => `${name}-${crypto.randomBytes(3).toString("hex")}@exemplo.com`;

  const signUp = (email: string, password: string, fullName = "Pessoa Nova") =>
    call(authAction, makeRequest("/auth", { form: { intent: "cadastro", fullName, email, password } }), nextIp());
  const signIn = (email: string, password: string) =>
    call(authAction, makeRequest("/auth", { form: { intent: "login", email, password } }), nextIp());
  const userRow = async (email: string) => (await test.runtime.db.select().from(user).where(eq(user.email, email)))[0];
  const sessionsOf = async (userId: string) =>
    (await test.runtime.db.select({ n: count() }).from(session).where(eq(session.userId, userId)))[0].n;
  const withoutTime = (body: unknown) => ({ ...(body as Record<string, unknown>), at: undefined, email: undefined });

  describe("sign-up and e-mail verification", () => {
    it("creates an unverified account without signing in, and confirms it through the e-mailed link and the password", async () => {
      const email = uniqueEmail("nova");
      const mark = smtp.messages.length;
      const created = answerOf<{ signedUp: boolean; email: string }>(await signUp(email, "minha-senha-nova-1", "Nova Pessoa"));
      expect(created).toMatchObject({ status: 200, body: { signedUp: true, email } });
      const row = await userRow(email);
      expect(row).toMatchObject({ name: "Nova Pessoa", emailVerified: false });
      expect(await sessionsOf(row.id)).toBe(0);

      // Not yet: the right password gets a clear message (and a new link), a wrong one the usual answer.
      expect(answerOf(await signIn(email, "minha-senha-nova-1"))).toMatchObject({ status: 403, body: { error: EMAIL_NOT_VERIFIED_MESSAGE } });
      expect(answerOf(await signIn(email, "outra-senha-1"))).toMatchObject({ status: 400, body: { error: "Email ou senha inválidos" } });

      const mail = await receiveMail(test.runtime, smtp, email, (m) => m.subject.startsWith("Confirme seu email"), mark);
      // The name typed at sign-up is a stranger's text: it never goes into the e-mail (issue 21).
      expect(mail.text).not.toContain("Nova Pessoa");
      const link = linkIn(mail, "/auth/verificar");
      expect(tokenOf(link)).toMatch(/^[\w-]{43}$/); // 256 bits
      expect(answerOf(await call(verifyLoader, makeRequest(link))).body).toMatchObject({ valid: true, email });

      const wrong = answerOf(await call(verifyAction, makeRequest("/auth/verificar", { form: { token: tokenOf(link), password: "nao-e-essa-1" } })));
      expect(wrong).toMatchObject({ status: 400, body: { error: WRONG_SIGN_UP_PASSWORD } });
      expect((await userRow(email)).emailVerified).toBe(false);

      const confirmed = answerOf(
        await call(verifyAction, makeRequest("/auth/verificar", { form: { token: tokenOf(link), password: "minha-senha-nova-1" } })),
      );
      expect(confirmed.status).toBe(302);
      expect(confirmed.location).toBe("/");
      expect(cookieFrom(confirmed.headers!)).toMatch(/session_token=/);
      expect((await userRow(email)).emailVerified).toBe(true);
      expect(await test.runtime.db.select().from(user_roles).where(eq(user_roles.user_id, row.id))).toEqual([]);

      // Single use.
      expect(answerOf(await call(verifyLoader, makeRequest(link))).body).toEqual({ valid: false });
      expect(
        answerOf(await call(verifyAction, makeRequest("/auth/verificar", { form: { token: tokenOf(link), password: "minha-senha-nova-1" } }))),
      ).toMatchObject({ status: 410, body: { error: LINK_NOT_VALID, expired: true } });
      expect(answerOf(await signIn(email, "minha-senha-nova-1")).status).toBe(302);
    });

    it("answers the same whether or not the address has an account; its owner is told and keeps the password", async () => {
      const owner = await createSignedInUser(test.runtime, "corretor");
      const mark = smtp.messages.length;
      const known = answerOf(await signUp(owner.email, "senha-de-outro-1"));
      const unknown = answerOf(await signUp(uniqueEmail("ninguem"), "senha-de-outro-1"));
      expect(known.status).toBe(unknown.status);
      expect(withoutTime(known.body)).toEqual(withoutTime(unknown.body));

      expect(answerOf(await signIn(owner.email, "senha-de-outro-1")).status).toBe(400);
      expect(answerOf(await signIn(owner.email, owner.password)).status).toBe(302);

      const mail = await receiveMail(test.runtime, smtp, owner.email, () => true, mark);
      expect(mail.subject).toContain("Tentativa de cadastro com seu email");
      // The e-mail offers a new password, and its link works.
      const link = linkIn(mail, "/auth/redefinir");
      expect(answerOf(await call(resetLoader, makeRequest(link))).body).toMatchObject({ valid: true, email: owner.email });
    });

    it("lets the latest sign-up of an unverified address win; a link needs that sign-up's password", async () => {
      const email = uniqueEmail("disputada");
      const mark = smtp.messages.length;
      await signUp(email, "senha-do-primeiro-1", "Primeiro");
      const first = linkIn(await receiveMail(test.runtime, smtp, email, () => true, mark), "/auth/verificar");
      const mark2 = smtp.messages.length;
      await signUp(email, "senha-do-segundo-1", "Segundo");
      const second = linkIn(await receiveMail(test.runtime, smtp, email, () => true, mark2), "/auth/verificar");

      expect(answerOf(await call(verifyLoader, makeRequest(first))).body).toEqual({ valid: false });
      // The owner of the address clicking the other sign-up's link, with their own password: nothing happens.
      expect(
        answerOf(await call(verifyAction, makeRequest("/auth/verificar", { form: { token: tokenOf(second), password: "senha-do-primeiro-1" } }))).status,
      ).toBe(400);
      expect((await userRow(email)).emailVerified).toBe(false);
      expect(
        answerOf(await call(verifyAction, makeRequest("/auth/verificar", { form: { token: tokenOf(second), password: "senha-do-segundo-1" } }))).status,
      ).toBe(302);
      expect(await userRow(email)).toMatchObject({ name: "Segundo", emailVerified: true });
    });
  });

  describe("'Esqueci minha senha'", () => {
    const forgot = (email: string) => call(forgotAction, makeRequest("/auth/esqueci", { form: { email } }), nextIp());

    it("answers the same for any address, and e-mails a one-hour, single-use link that ends every session", async () => {
      const person = await createSignedInUser(test.runtime, "corretor");
      const otherDevice = cookieFrom(
        (await test.runtime.auth.api.signInEmail({ body: { email: person.email, password: person.password }, returnHeaders: true })).headers,
      );
      expect(await sessionsOf(person.id)).toBe(2);

      const mark = smtp.messages.length;
      const known = answerOf(await forgot(person.email));
      const unknown = answerOf(await forgot(uniqueEmail("desconhecido")));
      expect(known.status).toBe(200);
      expect(known.status).toBe(unknown.status);
      expect(withoutTime(known.body)).toEqual(withoutTime(unknown.body));

      const mail = await receiveMail(test.runtime, smtp, person.email, () => true, mark);
      expect(mail.subject).toContain("Redefinição de senha");
      expect(smtp.messages.slice(mark).filter((m) => m.to.some((to) => to.startsWith("desconhecido")))).toEqual([]);
      const link = linkIn(mail, "/auth/redefinir");

      const [stored] = await test.runtime.db
        .select({ lifetime: sql<number>`extract(epoch from ${verification.expiresAt} - ${verification.createdAt})` })
        .from(verification)
        .where(eq(verification.value, person.id));
      expect(Math.round(Number(stored.lifetime))).toBe(3600);
      // Only the token's hash is stored.
      expect(await test.runtime.db.select().from(verification).where(sql`${verification.identifier} like ${"%" + tokenOf(link) + "%"}`)).toEqual([]);

      const page = answerOf<{ valid: boolean; email: string }>(await call(resetLoader, makeRequest(link)));
      expect(page.body).toMatchObject({ valid: true, email: person.email });

      const weak = answerOf(await call(resetAction, makeRequest("/auth/redefinir", { form: { token: tokenOf(link), password: "12345678" } })));
      expect(weak).toMatchObject({ status: 400, body: { error: PASSWORD_MESSAGES.common } });

      const done = answerOf(await call(resetAction, makeRequest("/auth/redefinir", { form: { token: tokenOf(link), password: "nova-senha-forte-7" } })));
      expect(done.status).toBe(302);
      expect(done.location).toBe("/auth?aviso=senha-redefinida");
      expect(await sessionsOf(person.id)).toBe(0);
      expect(await test.runtime.auth.api.getSession({ headers: new Headers({ Cookie: otherDevice }) })).toBeNull();
      expect(answerOf(await signIn(person.email, person.password)).status).toBe(400);
      expect(answerOf(await signIn(person.email, "nova-senha-forte-7")).status).toBe(302);

      expect(answerOf(await call(resetLoader, makeRequest(link))).body).toEqual({ valid: false });
      expect(
        answerOf(await call(resetAction, makeRequest("/auth/redefinir", { form: { token: tokenOf(link), password: "mais-uma-senha-8" } }))),
      ).toMatchObject({ status: 410, body: { error: LINK_NOT_VALID } });
      const audited = await test.runtime.db
        .select({ details: audit_log.details })
        .from(audit_log)
        .where(and(eq(audit_log.action, "user.password_reset"), eq(audit_log.entity_id, person.id)));
      expect(audited).toHaveLength(1);
      expect(JSON.stringify(audited)).not.toContain("nova-senha-forte-7");
    });

    it("refuses a link older than an hour", async () => {
      const person = await createSignedInUser(test.runtime, null);
      const mark = smtp.messages.length;
      await forgot(person.email);
      const link = linkIn(await receiveMail(test.runtime, smtp, person.email, () => true, mark), "/auth/redefinir");
      await test.runtime.db.update(verification).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(verification.value, person.id));
      expect(answerOf(await call(resetLoader, makeRequest(link))).body).toEqual({ valid: false });
      expect(
        answerOf(await call(resetAction, makeRequest("/auth/redefinir", { form: { token: tokenOf(link), password: "nova-senha-forte-8" } }))).status,
      ).toBe(410);
    });

    it("verifies an address whose first sign-up was someone else's: the owner resets and the other password is gone", async () => {
      const email = uniqueEmail("tomada");
      await signUp(email, "senha-do-intruso-2", "Intruso");
      const mark = smtp.messages.length;
      await forgot(email);
      const link = linkIn(await receiveMail(test.runtime, smtp, email, (m) => m.subject.includes("Redefinição"), mark), "/auth/redefinir");
      expect(
        answerOf(await call(resetAction, makeRequest("/auth/redefinir", { form: { token: tokenOf(link), password: "senha-da-dona-3" } }))).status,
      ).toBe(302);
      expect((await userRow(email)).emailVerified).toBe(true);
      expect(answerOf(await signIn(email, "senha-do-intruso-2")).status).toBe(400);
      expect(answerOf(await signIn(email, "senha-da-dona-3")).status).toBe(302);
    });
  });

  describe("changing one's own password (/crm/conta)", () => {
    it("needs the current password and the rules, then ends the other sessions", async () => {
      const staff = await createSignedInUser(test.runtime, "corretor");
      const otherDevice = cookieFrom(
        (await test.runtime.auth.api.signInEmail({ body: { email: staff.email, password: staff.password }, returnHeaders: true })).headers,
      );
      const change = (currentPassword: string, newPassword: string) =>
        call(accountAction, makeRequest("/crm/conta", { form: { currentPassword, newPassword }, cookie: staff.cookie }));

      expect(answerOf(await change("errada-123", "senha-trocada-1"))).toMatchObject({ status: 400, body: { message: WRONG_CURRENT_PASSWORD } });
      expect(answerOf(await change(staff.password, "qwertyuiop"))).toMatchObject({ status: 400, body: { message: PASSWORD_MESSAGES.common } });
      expect(answerOf(await change(staff.password, "curta"))).toMatchObject({ status: 400, body: { message: PASSWORD_MESSAGES.min } });
      expect(answerOf(await change(staff.password, "senha-trocada-1"))).toMatchObject({ status: 200, body: { ok: true } });

      expect(await test.runtime.auth.api.getSession({ headers: new Headers({ Cookie: staff.cookie }) })).not.toBeNull();
      expect(await test.runtime.auth.api.getSession({ headers: new Headers({ Cookie: otherDevice }) })).toBeNull();
      expect(answerOf(await signIn(staff.email, staff.password)).status).toBe(400);
      expect(answerOf(await signIn(staff.email, "senha-trocada-1")).status).toBe(302);
      const audited = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "user.password"), eq(audit_log.actor_id, staff.id)));
      expect(audited).toHaveLength(1);
      expect(JSON.stringify(audited)).not.toContain("senha-trocada-1");
    });
  });

  describe("invitations and roles (/crm/usuarios)", () => {
    const invite = (email: string, role = "corretor") =>
      call(usersAction, makeRequest("/crm/usuarios", { form: { intent: "invite", email, role }, cookie: admin.cookie }));

    it("an admin invites by e-mail; the 72-hour link makes a verified account with the role, signed in, once", async () => {
      const email = uniqueEmail("convidada");
      const mark = smtp.messages.length;
      expect(answerOf(await invite(email))).toMatchObject({ status: 200, body: { ok: true } });
      const mail = await receiveMail(test.runtime, smtp, email, () => true, mark);
      expect(mail.subject).toContain("Convite para o CRM");
      expect(mail.text).toContain("corretor(a)");
      const link = linkIn(mail, "/auth/convite");
      const token = tokenOf(link);

      const [row] = await test.runtime.db.select().from(invitation).where(eq(invitation.email, email));
      expect(row.token_hash).toBe(crypto.createHash("sha256").update(token).digest("hex"));
      expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBe(72 * 60 * 60 * 1000);
      const audited = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "user.invite"), eq(audit_log.entity_id, row.id)));
      expect(audited).toHaveLength(1);
      expect(JSON.stringify(audited)).not.toContain(token);

      expect(answerOf(await call(inviteLoader, makeRequest(link))).body).toMatchObject({ valid: true, email, role: "corretor" });
      const weak = answerOf(await call(inviteAction, makeRequest("/auth/convite", { form: { token, fullName: "Convidada", password: "iloveyou" } })));
      expect(weak).toMatchObject({ status: 400, body: { error: PASSWORD_MESSAGES.common } });

      const accepted = answerOf(
        await call(inviteAction, makeRequest("/auth/convite", { form: { token, fullName: "Ana Convidada", password: "senha-da-ana-1" } })),
      );
      expect(accepted.status).toBe(302);
      expect(accepted.location).toBe("/crm");
      const cookie = cookieFrom(accepted.headers!);
      expect(answerOf(await call(dashboardLoader, makeRequest("/crm", { cookie }))).status).toBe(200);
      const created = await userRow(email);
      expect(created).toMatchObject({ name: "Ana Convidada", emailVerified: true });
      const [role] = await test.runtime.db.select().from(user_roles).where(eq(user_roles.user_id, created.id));
      expect(role.role).toBe("corretor");

      expect(answerOf(await call(inviteLoader, makeRequest(link))).body).toMatchObject({ valid: false, problem: expect.stringContaining("já foi usado") });
      expect(
        answerOf(await call(inviteAction, makeRequest("/auth/convite", { form: { token, fullName: "Outra", password: "senha-da-outra-1" } }))).status,
      ).toBe(410);
    });

    it("says when a link expired or was never sent", async () => {
      const email = uniqueEmail("atrasada");
      const mark = smtp.messages.length;
      await invite(email, "admin");
      const link = linkIn(await receiveMail(test.runtime, smtp, email, () => true, mark), "/auth/convite");
      await test.runtime.db.update(invitation).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(invitation.email, email));
      expect(answerOf(await call(inviteLoader, makeRequest(link))).body).toMatchObject({ valid: false, problem: expect.stringContaining("expirou") });
      const late = answerOf(
        await call(inviteAction, makeRequest("/auth/convite", { form: { token: tokenOf(link), fullName: "Atrasada", password: "senha-atrasada-1" } })),
      );
      expect(late.status).toBe(410);
      expect(await userRow(email)).toBeUndefined();
      expect(answerOf(await call(inviteLoader, makeRequest("/auth/convite?token=inventado"))).body).toMatchObject({
        valid: false,
        problem: expect.stringContaining("não encontrado"),
      });
    });

    it("does not invite an address that already has a verified account", async () => {
      const existing = await createSignedInUser(test.runtime, null);
      expect(answerOf(await invite(existing.email))).toMatchObject({ status: 400, body: { message: ALREADY_VERIFIED_MESSAGE } });
      expect(await test.runtime.db.select().from(invitation).where(eq(invitation.email, existing.email))).toEqual([]);
    });

    it("shows whether each e-mail is verified, and grants a role only to a verified account", async () => {
      const email = uniqueEmail("pendente");
      const mark = smtp.messages.length;
      await signUp(email, "senha-pendente-1");
      const pending = await userRow(email);
      const listed = answerOf<{ users: { id: string; emailVerified: boolean }[] }>(
        await call(usersLoader, makeRequest("/crm/usuarios", { cookie: admin.cookie })),
      );
      expect(listed.body.users.find((row) => row.id === pending.id)?.emailVerified).toBe(false);
      expect(listed.body.users.find((row) => row.id === admin.id)?.emailVerified).toBe(true);

      const grant = () => call(usersAction, makeRequest("/crm/usuarios", { form: { userId: pending.id, role: "corretor" }, cookie: admin.cookie }));
      expect(answerOf(await grant())).toMatchObject({ status: 400, body: { message: UNVERIFIED_ROLE_MESSAGE } });
      expect(await test.runtime.db.select().from(user_roles).where(eq(user_roles.user_id, pending.id))).toEqual([]);

      const link = linkIn(await receiveMail(test.runtime, smtp, email, () => true, mark), "/auth/verificar");
      await call(verifyAction, makeRequest("/auth/verificar", { form: { token: tokenOf(link), password: "senha-pendente-1" } }));
      expect(answerOf(await grant())).toMatchObject({ status: 200, body: { ok: true } });
      const audited = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "user.role"), eq(audit_log.entity_id, pending.id)));
      expect(audited).toHaveLength(1);
      expect(audited[0]).toMatchObject({ actor_id: admin.id, details: { from: null, to: "corretor" } });
    });
  });
});
