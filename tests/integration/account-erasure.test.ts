import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, calendar_feeds, invitation, outbox, session, throttle, user, user_roles, verification } from "~/db/schema";
import { CANNOT_DELETE_SELF } from "~/features/auth/erasure.server";
import { housekeepingRound } from "~/runtime.server";
import { action as authAction } from "~/routes/auth";
import { action as forgotAction } from "~/routes/auth-forgot";
import { loader as feedLoader } from "~/routes/calendar-feed";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { action as usersAction } from "~/routes/crm-users";
import { action as visitsAction } from "~/routes/crm-visits";
import { createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { answerOf, call } from "./auth-helpers";

/**
 * Issue 21, finding 11 (LGPD): accounts could not be erased, and open sign-up kept a name and an
 * e-mail forever. An admin deletes an account from /crm/usuarios with everything that names or
 * opens it; unconfirmed accounts go after UNCONFIRMED_ACCOUNT_DAYS through the hourly housekeeping.
 */
describe.each(DATABASE_KINDS)("erasing accounts on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;
  beforeAll(async () => {
    test = await startTestRuntime(kind, { UNCONFIRMED_ACCOUNT_DAYS: "7" });
    admin = await createSignedInUser(test.runtime, "admin");
  });
  afterAll(async () => {
    await test.stop();
  });

  let ipCounter = 0;
  const nextIp = () => `198.51.100.${++ipCounter}`;
  const remove = (userId: string, as: TestUser = admin) =>
    call(usersAction, makeRequest("/crm/usuarios", { form: { intent: "delete", id: userId }, cookie: as.cookie }));
  const rows = async (table: typeof session | typeof user_roles | typeof calendar_feeds | typeof verification, where: ReturnType<typeof eq>) =>
    (await test.runtime.db.select({ n: count() }).from(table as typeof session).where(where))[0].n;

  it("an admin deletes an account with its sessions, role, calendar feed, tokens, invitations and account e-mails", async () => {
    const target = await createSignedInUser(test.runtime, "admin");
    const { db } = test.runtime;
    const feed = answerOf<{ feedUrl: string }>(await call(visitsAction, makeRequest("/crm/visitas", { form: { intent: "feed" }, cookie: target.cookie }))).body.feedUrl;
    const file = feed.split("/calendario/")[1];
    await call(forgotAction, makeRequest("/auth/esqueci", { form: { email: target.email } }), nextIp());
    await call(usersAction, makeRequest("/crm/usuarios", { form: { intent: "invite", email: "convidada-pela-alvo@exemplo.com", role: "corretor" }, cookie: target.cookie }));
    await call(authAction, makeRequest("/auth", { form: { intent: "login", email: target.email, password: "errada-1" } }), nextIp());
    expect(await rows(verification, eq(verification.value, target.id))).toBe(1);
    expect((await db.select().from(outbox).where(eq(outbox.to_address, target.email))).length).toBeGreaterThan(0);
    expect((await db.select().from(throttle).where(sql`position(${target.email} in ${throttle.key}) > 0`)).length).toBeGreaterThan(0);

    const answer = answerOf(await remove(target.id));
    expect(answer).toMatchObject({ status: 200, body: { ok: true, message: `Conta de ${target.email} excluída.` } });

    expect(await db.select().from(user).where(eq(user.id, target.id))).toEqual([]);
    expect(await rows(session, eq(session.userId, target.id))).toBe(0);
    expect(await rows(user_roles, eq(user_roles.user_id, target.id))).toBe(0);
    expect(await rows(calendar_feeds, eq(calendar_feeds.user_id, target.id))).toBe(0);
    expect(await rows(verification, eq(verification.value, target.id))).toBe(0);
    expect(await db.select().from(outbox).where(eq(outbox.to_address, target.email))).toEqual([]);
    expect(await db.select().from(throttle).where(sql`position(${target.email} in ${throttle.key}) > 0`)).toEqual([]);
    const [sent] = await db.select().from(invitation).where(eq(invitation.email, "convidada-pela-alvo@exemplo.com"));
    expect(sent.revoked_at).not.toBeNull();

    // The cookie and the feed open nothing any more.
    expect(answerOf(await call(dashboardLoader, makeRequest("/crm", { cookie: target.cookie }))).location).toBe("/auth");
    expect(((await feedLoader({ request: makeRequest(`/calendario/${file}`), params: { file }, context: {} } as never)) as Response).status).toBe(404);

    const [entry] = await db.select().from(audit_log).where(and(eq(audit_log.action, "user.delete"), eq(audit_log.entity_id, target.id)));
    expect(entry).toMatchObject({ actor_id: admin.id, details: { role: "admin" } });
    expect(JSON.stringify(entry)).not.toContain(target.email);
  });

  it("never deletes one's own account, an unknown one, or with a malformed id", async () => {
    expect(answerOf(await remove(admin.id))).toMatchObject({ status: 400, body: { ok: false, message: CANNOT_DELETE_SELF } });
    expect(await test.runtime.db.select().from(user).where(eq(user.id, admin.id))).toHaveLength(1);
    expect(answerOf(await remove("nao-existe")).status).toBe(404);
    expect(answerOf(await remove("x".repeat(300))).status).toBe(400);
    expect(answerOf(await remove("")).status).toBe(400);
  });

  it("two admins deleting each other at once: one wins, an admin always remains", async () => {
    const first = await createSignedInUser(test.runtime, "admin");
    const second = await createSignedInUser(test.runtime, "admin");
    const results = await Promise.all([remove(second.id, first), remove(first.id, second)]);
    const statuses = results.map((result) => answerOf(result).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    const left = await test.runtime.db.select().from(user).where(sql`${user.id} in (${first.id}, ${second.id})`);
    expect(left).toHaveLength(1);
  });

  it("unconfirmed accounts expire after UNCONFIRMED_ACCOUNT_DAYS through the housekeeping round; confirmed ones stay", async () => {
    const { db } = test.runtime;
    const signUp = (email: string) =>
      call(authAction, makeRequest("/auth", { form: { intent: "cadastro", fullName: "Pessoa Sumida", email, password: "senha-de-quem-sumiu-1" } }), nextIp());
    await signUp("sumiu@exemplo.com");
    await signUp("recente@exemplo.com");
    const old = await createSignedInUser(test.runtime, null);
    await db.update(user).set({ updatedAt: sql`now() - interval '8 days'`, createdAt: sql`now() - interval '8 days'` }).where(sql`${user.email} in ('sumiu@exemplo.com', ${old.email})`);
    await db.update(user).set({ updatedAt: sql`now() - interval '6 days'` }).where(eq(user.email, "recente@exemplo.com"));
    const [gone] = await db.select({ id: user.id }).from(user).where(eq(user.email, "sumiu@exemplo.com"));

    await housekeepingRound(test.runtime);

    expect(await db.select().from(user).where(eq(user.email, "sumiu@exemplo.com"))).toEqual([]);
    expect(await rows(verification, eq(verification.value, gone.id))).toBe(0);
    expect(await db.select().from(outbox).where(eq(outbox.to_address, "sumiu@exemplo.com"))).toEqual([]);
    expect(await db.select().from(user).where(eq(user.email, "recente@exemplo.com"))).toHaveLength(1);
    expect(await db.select().from(user).where(eq(user.email, old.email))).toHaveLength(1);
    const [entry] = await db.select().from(audit_log).where(eq(audit_log.action, "user.expire"));
    expect(entry).toMatchObject({ actor_id: null, details: { count: 1, days: 7 } });
    expect(JSON.stringify(entry)).not.toContain("sumiu");
  });
});
