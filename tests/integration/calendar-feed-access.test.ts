import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, calendar_feeds } from "~/db/schema";
import { loader as feedLoader } from "~/routes/calendar-feed";
import { action as accountAction } from "~/routes/crm-account";
import { action as signOutAction } from "~/routes/crm-sign-out";
import { action as visitsAction, loader as visitsLoader } from "~/routes/crm-visits";
import { action as forgotAction } from "~/routes/auth-forgot";
import { action as resetAction } from "~/routes/auth-reset";
import { createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { answerOf, call, linkIn, receiveMail, tokenOf } from "./auth-helpers";

/**
 * Issue 21, finding 6: a staff member's private calendar feed kept answering after 'Sair' (which
 * ends every session) and after a new password. Its URL is a key like a session: those are the
 * moments a person takes their keys back, so it stops then, and 'Agenda no celular' makes a new one.
 */
describe.each(DATABASE_KINDS)("calendar feed after sign-out and new passwords on %s", (kind) => {
  let test: TestRuntime;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    test = await startTestRuntime(kind, { SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await test.stop();
    await smtp.stop();
  });

  let ipCounter = 0;
  const nextIp = () => `198.51.100.${++ipCounter}`;

  /** A new feed for the staff member, through 'Agenda no celular': its file name. */
  async function makeFeed(staff: TestUser): Promise<string> {
    const answer = answerOf<{ feedUrl: string }>(await call(visitsAction, makeRequest("/crm/visitas", { form: { intent: "feed" }, cookie: staff.cookie })));
    expect(answer.status).toBe(200);
    return answer.body.feedUrl.split("/calendario/")[1];
  }
  const feedStatus = async (file: string) =>
    ((await feedLoader({ request: makeRequest(`/calendario/${file}`), params: { file }, context: {} } as never)) as Response).status;
  const revocations = async (userId: string) =>
    test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "calendar_feed.revoke"), eq(audit_log.entity_id, userId)));

  it("'Sair' turns the feed off; signed in again, the person makes a new one", async () => {
    const staff = await createSignedInUser(test.runtime, "corretor");
    const file = await makeFeed(staff);
    expect(await feedStatus(file)).toBe(200);

    const out = answerOf(await call(signOutAction, makeRequest("/crm/sair", { form: {}, cookie: staff.cookie })));
    expect(out.location).toBe("/auth");
    expect(await feedStatus(file)).toBe(404);
    expect(await test.runtime.db.select().from(calendar_feeds).where(eq(calendar_feeds.user_id, staff.id))).toEqual([]);
    expect(await revocations(staff.id)).toHaveLength(1);

    const again = await createSignedInUser(test.runtime, "corretor");
    const page = answerOf<{ feed: { active: boolean } }>(await call(visitsLoader, makeRequest("/crm/visitas", { cookie: again.cookie })));
    expect(page.body.feed.active).toBe(false);
    const fresh = await makeFeed(again);
    expect(await feedStatus(fresh)).toBe(200);
  });

  it("a password reset by e-mail turns the feed off", async () => {
    const staff = await createSignedInUser(test.runtime, "admin");
    const file = await makeFeed(staff);
    const mark = smtp.messages.length;
    await call(forgotAction, makeRequest("/auth/esqueci", { form: { email: staff.email } }), nextIp());
    const link = linkIn(await receiveMail(test.runtime, smtp, staff.email, () => true, mark), "/auth/redefinir");
    expect(await feedStatus(file)).toBe(200);
    const done = answerOf(await call(resetAction, makeRequest("/auth/redefinir", { form: { token: tokenOf(link), password: "outra-senha-forte-4" } }), nextIp()));
    expect(done.status).toBe(302);
    expect(await feedStatus(file)).toBe(404);
    expect(await revocations(staff.id)).toHaveLength(1);
  });

  it("a password change on /crm/conta turns the feed off too", async () => {
    const staff = await createSignedInUser(test.runtime, "corretor");
    const file = await makeFeed(staff);
    const changed = answerOf(
      await call(accountAction, makeRequest("/crm/conta", { form: { currentPassword: staff.password, newPassword: "senha-trocada-forte-5" }, cookie: staff.cookie })),
    );
    expect(changed.status).toBe(200);
    expect(await feedStatus(file)).toBe(404);
  });

  it("a person without a feed signs out without an audit entry about feeds", async () => {
    const staff = await createSignedInUser(test.runtime, "corretor");
    await call(signOutAction, makeRequest("/crm/sair", { form: {}, cookie: staff.cookie }));
    expect(await revocations(staff.id)).toEqual([]);
  });
});
