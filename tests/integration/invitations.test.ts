import crypto from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, invitation, user } from "~/db/schema";
import { INVITATION_REVOKED_MESSAGE, INVITATION_NOT_PENDING } from "~/features/auth/invitations.server";
import { action as inviteAction, loader as inviteLoader } from "~/routes/auth-invite";
import { action as usersAction, loader as usersLoader } from "~/routes/crm-users";
import { createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { answerOf, call, linkIn, receiveMail, tokenOf } from "./auth-helpers";

/**
 * Issue 21, finding 7: pending invitations could not be revoked and outlived their inviter's
 * admin role. /crm/usuarios lists them with 'Revogar'; a revoked link says so; an inviter who
 * loses admin takes their pending invitations along. (The CLI's role:set and role:remove: cli.test.ts.)
 */
describe.each(DATABASE_KINDS)("invitations on %s", (kind) => {
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

  const uniqueEmail = (name: string) => `${name}-${crypto.randomBytes(3).toString("hex")}@exemplo.com`;
  const usersPost = (form: Record<string, string>, as: TestUser = admin) => call(usersAction, makeRequest("/crm/usuarios", { form, cookie: as.cookie }));

  /** Invites by e-mail as `as`; the invitation's id and the token in the e-mailed link. */
  async function invite(as: TestUser, role = "corretor") {
    const email = uniqueEmail("convidado");
    const mark = smtp.messages.length;
    expect(answerOf(await usersPost({ intent: "invite", email, role }, as)).status).toBe(200);
    const token = tokenOf(linkIn(await receiveMail(test.runtime, smtp, email, () => true, mark), "/auth/convite"));
    const [row] = await test.runtime.db.select({ id: invitation.id }).from(invitation).where(eq(invitation.email, email));
    return { id: row.id, email, token };
  }
  const pendingIds = async () =>
    answerOf<{ invitations: { id: string; invitedBy: string | null }[] }>(await call(usersLoader, makeRequest("/crm/usuarios", { cookie: admin.cookie }))).body.invitations;
  const accept = (token: string) =>
    call(inviteAction, makeRequest("/auth/convite", { form: { token, fullName: "Pessoa Convidada", password: "senha-convidada-forte-1" } }));

  it("an admin revokes a pending invitation; its link then fails with a clear message", async () => {
    const sent = await invite(admin);
    const listed = (await pendingIds()).find((item) => item.id === sent.id);
    expect(listed).toBeTruthy();
    expect(listed!.invitedBy).toBe("Usuário Teste");

    const revoked = answerOf(await usersPost({ intent: "revoke-invitation", id: sent.id }));
    expect(revoked).toMatchObject({ status: 200, body: { ok: true, message: `Convite para ${sent.email} revogado.` } });
    expect((await pendingIds()).map((item) => item.id)).not.toContain(sent.id);

    expect(answerOf(await call(inviteLoader, makeRequest(`/auth/convite?token=${sent.token}`))).body).toEqual({ valid: false, problem: INVITATION_REVOKED_MESSAGE });
    const late = answerOf<{ error: string }>(await accept(sent.token));
    expect(late).toMatchObject({ status: 410, body: { error: INVITATION_REVOKED_MESSAGE } });
    expect(await test.runtime.db.select().from(user).where(eq(user.email, sent.email))).toEqual([]);

    const [entry] = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "user.invite_revoke"), eq(audit_log.entity_id, sent.id)));
    expect(entry).toMatchObject({ actor_id: admin.id, details: { role: "corretor" } });

    // Twice, or an invitation that is no longer pending: 404 with a message, nothing changes.
    expect(answerOf(await usersPost({ intent: "revoke-invitation", id: sent.id }))).toMatchObject({ status: 404, body: { ok: false, message: INVITATION_NOT_PENDING } });
    expect(answerOf(await usersPost({ intent: "revoke-invitation", id: "não-é-um-id" }))).toMatchObject({ status: 400, body: { ok: false } });
    const used = await invite(admin);
    expect(answerOf(await accept(used.token)).status).toBe(302);
    expect(answerOf(await usersPost({ intent: "revoke-invitation", id: used.id })).status).toBe(404);
  });

  it("an inviter who loses admin in the CRM takes their pending invitations along; other admins' stay", async () => {
    const inviter = await createSignedInUser(test.runtime, "admin");
    const theirs = await invite(inviter, "admin");
    const alsoTheirs = await invite(inviter);
    const mine = await invite(admin);

    expect(answerOf(await usersPost({ userId: inviter.id, role: "corretor" })).status).toBe(200);

    const pending = (await pendingIds()).map((item) => item.id);
    expect(pending).not.toContain(theirs.id);
    expect(pending).not.toContain(alsoTheirs.id);
    expect(pending).toContain(mine.id);
    expect(answerOf<{ error: string }>(await accept(theirs.token))).toMatchObject({ status: 410, body: { error: INVITATION_REVOKED_MESSAGE } });
    const revokedRows = await test.runtime.db.select().from(invitation).where(and(eq(invitation.invited_by, inviter.id), isNotNull(invitation.revoked_at)));
    expect(revokedRows).toHaveLength(2);
    const audited = await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "user.invite_revoke"));
    expect(audited.filter((row) => row.entity_id === theirs.id)).toHaveLength(1);
    expect(audited.find((row) => row.entity_id === theirs.id)!.details).toMatchObject({ reason: "inviter_not_admin" });

    // A corretor promoted again does not bring them back.
    expect(answerOf(await usersPost({ userId: inviter.id, role: "admin" })).status).toBe(200);
    expect((await pendingIds()).map((item) => item.id)).not.toContain(theirs.id);
  });

  it("a demotion to no role at all ends them too", async () => {
    const inviter = await createSignedInUser(test.runtime, "admin");
    const theirs = await invite(inviter);
    expect(answerOf(await usersPost({ userId: inviter.id, role: "" })).status).toBe(200);
    expect((await pendingIds()).map((item) => item.id)).not.toContain(theirs.id);
  });
});
