import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lead_profiles, leads, listing_alert_digests, listing_alert_tokens, listing_alerts, outbox, properties } from "~/db/schema";
import { loadManagePage, pruneAlerts } from "~/features/alerts/alerts.server";
import { runAlertDigests } from "~/features/alerts/digest.server";
import { deliverDueMail } from "~/features/mail/worker.server";
import { action as manageAction, loader as manageLoader } from "~/routes/alerts-manage";
import { action as subscribeAction } from "~/routes/alerts-subscribe";
import { housekeepingRound } from "~/runtime.server";
import { isCacheable } from "../../server/request-rules";
import { everyTextValue, tokenCandidates } from "../helpers/database-text";
import { insertLead, insertProperty, makeRequest, settle } from "../helpers/factories";
import { anonymizeLeads } from "~/features/privacy/anonymize.server";
import { personJson } from "~/features/privacy/export-document.server";
import { loadPerson } from "~/features/privacy/person.server";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { answerOf } from "./auth-helpers";

/**
 * Issue 23, item 3 (decision 025): 'Avise-me' end to end through the real routes and a real SMTP
 * server: subscribe, the confirmation mail, no usable token in the database, confirm → lead and
 * profile, one digest a day however often (and by however many) the job runs, the one-click
 * unsubscribe, expiry of unconfirmed alerts, and 400 (never 500) for bad input.
 */

let ipCounter = 0;
const nextIp = () => `203.0.113.${(++ipCounter % 250) + 1}`;
const QUERY = "finalidade=venda&tipo=apartamento&bairro=Alert%C3%B3polis&quartos=3&pagina=2";

function subscribe(form: Record<string, string>) {
  return settle(() => subscribeAction({ request: makeRequest("/alertas", { form }), params: {}, context: { cspNonce: "n", clientIp: nextIp() } } as never));
}
async function managePage(token: string): Promise<unknown> {
  // The loader throws data(…, 404): caught like a thrown Response.
  return settle(() => manageLoader({ request: makeRequest(`/alertas/${token}`), params: { token }, context: { cspNonce: "n", clientIp: nextIp() } } as never)).catch((error: unknown) => {
    if (error && typeof error === "object" && "init" in error) return error;
    throw error;
  });
}
function managePost(token: string, form: Record<string, string>) {
  return settle(() => manageAction({ request: makeRequest(`/alertas/${token}`, { form }), params: { token }, context: { cspNonce: "n", clientIp: nextIp() } } as never));
}
function tokenIn(mail: ReceivedMail): string {
  const found = /https?:\/\/[^\s"<>]+\/alertas\/([0-9a-f]{64})/.exec(mail.text);
  expect(found, `an /alertas link in "${mail.subject}"`).toBeTruthy();
  return found![1];
}

describe.each(DATABASE_KINDS)("'Avise-me' alerts on %s", (kind) => {
  let test: TestRuntime;
  let smtp: TestSmtpServer;
  const db = () => test.runtime.db;
  const env = () => ({ ...test.runtime.env, SMTP_URL: smtp.url });
  const deliver = () => deliverDueMail({ db: db(), env: env() });
  const email = `visitante-${Date.now()}@exemplo.com`;
  let confirmToken = "";

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.stop();
    await test.stop();
  });

  it("refuses bad input with 400 and a Portuguese message, never 500", async () => {
    for (const form of <Record<string, string>[]>[
      { email: "não é e-mail", q: QUERY },
      { email, phone: "123", q: QUERY },
      { email, phone: "(84) 99999-99999999", q: QUERY },
      { email, q: `bairro=${"x".repeat(1200)}` },
      {},
    ]) {
      const answer = answerOf<{ ok: boolean; message: string }>(await subscribe(form));
      expect(answer.status, JSON.stringify(form).slice(0, 80)).toBe(400);
      expect(answer.body.message).toMatch(/inválid|long/i);
    }
    expect(await db().select().from(listing_alerts)).toHaveLength(0);
  });

  it("subscribes, mails a confirmation link, and keeps no usable token in the database", async () => {
    const answer = answerOf<{ ok: boolean; message: string }>(await subscribe({ email, phone: "(84) 98888-7777", q: QUERY }));
    expect(answer.status).toBe(200);
    expect(answer.body.ok).toBe(true);
    const [alert] = await db().select().from(listing_alerts);
    // The filters as /imoveis serialises them, without the page.
    expect(alert).toMatchObject({ email, status: "pending", query: "tipo=apartamento&finalidade=venda&bairro=Alert%C3%B3polis&quartos=3" });
    const [queued] = await db().select().from(outbox).where(eq(outbox.kind, "alert-confirm"));
    expect(queued.text_body).toContain("/alertas/__token__");
    expect(queued.link_token).toBeTruthy();

    // Every token-like string a copy of the database holds opens nothing.
    const text = (await everyTextValue(db())).map((entry) => entry.value).join("\n");
    for (const candidate of tokenCandidates(text)) expect(await loadManagePage(db(), candidate)).toBeNull();

    await deliver();
    const mail = await smtp.waitFor((m) => m.to.includes(email) && /Confirme/.test(m.subject));
    confirmToken = tokenIn(mail);
    const [sent] = await db().select({ link: outbox.link_token }).from(outbox).where(eq(outbox.kind, "alert-confirm"));
    expect(sent.link).toBeNull();
  });

  it("opening the link confirms nothing; the button confirms and makes a lead with a profile", async () => {
    const page = answerOf<{ ownStatus: string; alerts: { description: string }[] }>(await managePage(confirmToken));
    expect(page.status).toBe(200);
    expect(page.body.ownStatus).toBe("pending");
    expect(page.body.alerts[0].description).toContain("Alertópolis");
    expect((await db().select().from(listing_alerts))[0].status).toBe("pending");

    const confirmed = answerOf<{ ok: boolean }>(await managePost(confirmToken, { intent: "confirm" }));
    expect(confirmed.body.ok).toBe(true);
    const [alert] = await db().select().from(listing_alerts);
    expect(alert.status).toBe("confirmed");
    expect(alert.lead_id).toBeTruthy();
    const [lead] = await db().select().from(leads).where(eq(leads.id, alert.lead_id!));
    expect(lead).toMatchObject({ origin: "site", email, phone: "(84) 98888-7777", status: "novo" });
    const [profile] = await db().select().from(lead_profiles).where(eq(lead_profiles.lead_id, lead.id));
    expect(profile).toMatchObject({ purpose: "venda", types: ["apartamento"], neighborhoods: ["Alertópolis"], min_bedrooms: 3 });
    // A second confirmation (a double click) makes no second lead.
    await managePost(confirmToken, { intent: "confirm" });
    expect(await db().select().from(leads).where(eq(leads.email, email))).toHaveLength(1);
  });

  let digestToken = "";
  it("sends one digest a day with the new matching listing, however often and by however many the job runs", async () => {
    await insertProperty(test.runtime, { title: "Apto novo em Alertópolis", type: "apartamento", purpose: "venda", bedrooms: 3, neighborhood: "Alertópolis", price: 610000 });
    await insertProperty(test.runtime, { title: "Casa fora do alerta", type: "casa", purpose: "venda", bedrooms: 3, neighborhood: "Alertópolis" });
    const first = await runAlertDigests(db(), env());
    // A second run, and two "processes" at once: the day's claim holds.
    const again = await Promise.all([runAlertDigests(db(), env()), runAlertDigests(db(), env())]);
    expect(first.queued).toBe(1);
    expect(again.map((run) => run.queued)).toEqual([0, 0]);
    const digests = await db().select().from(outbox).where(eq(outbox.kind, "alert-digest"));
    expect(digests).toHaveLength(1);
    expect(digests[0].text_body).toContain("Apto novo em Alertópolis");
    expect(digests[0].text_body).not.toContain("Casa fora do alerta");
    expect(await db().select().from(listing_alert_digests)).toHaveLength(1);

    await deliver();
    const mail = await smtp.waitFor((m) => m.to.includes(email) && /alerta/.test(m.subject) && m.text.includes("Apto novo"));
    expect(mail.html).toContain("R$");
    // (nodemailer folds the long header onto a second line)
    expect(mail.raw).toMatch(/^List-Unsubscribe:\s+<http:\/\/localhost:3000\/alertas\/[0-9a-f]{64}>/m);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    digestToken = tokenIn(mail);
    expect(mail.raw).toContain(`/alertas/${digestToken}>`);
  });

  it("nothing new: the next day's run queues nothing", async () => {
    await db().delete(listing_alert_digests);
    expect((await runAlertDigests(db(), env())).queued).toBe(0);
  });

  it("the one-click unsubscribe deletes the alert, and nothing is sent afterwards", async () => {
    const answer = await managePost(digestToken, { "List-Unsubscribe": "One-Click" });
    // The address's only alert: the page is gone too, so the answer sends to /alertas?cancelado=1.
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).headers.get("Location")).toBe("/alertas?cancelado=1");
    expect(await db().select().from(listing_alerts)).toHaveLength(0);
    expect(await db().select().from(listing_alert_tokens)).toHaveLength(0);
    await db().delete(listing_alert_digests);
    await insertProperty(test.runtime, { title: "Outro apto em Alertópolis", type: "apartamento", purpose: "venda", bedrooms: 3, neighborhood: "Alertópolis" });
    expect((await runAlertDigests(db(), env())).queued).toBe(0);
    expect(await db().select().from(outbox).where(eq(outbox.kind, "alert-digest"))).toHaveLength(1);
    // The old link now opens nothing (404, not 500).
    expect(answerOf(await managePage(digestToken)).status).toBe(404);
  });

  it("cancels one alert of the address from the page, and refuses other addresses' alerts", async () => {
    await subscribe({ email, q: "finalidade=aluguel" });
    await subscribe({ email: "outra@exemplo.com", q: "finalidade=aluguel" });
    const rows = await db().select().from(listing_alerts);
    const other = rows.find((row) => row.email === "outra@exemplo.com")!;
    await deliver();
    const mail = await smtp.waitFor((m) => m.to.includes(email) && /Confirme/.test(m.subject) && !m.text.includes(confirmToken) && m.text.includes("Aluguel"));
    const token = tokenIn(mail);
    // Without a phone: confirmed, but no lead (leads need a phone).
    await managePost(token, { intent: "confirm" });
    const mine = (await db().select().from(listing_alerts)).find((row) => row.email === email)!;
    expect(mine).toMatchObject({ status: "confirmed", lead_id: null });
    expect(answerOf(await managePost(token, { intent: "cancel", alert: other.id })).status).toBe(404);
    expect(answerOf(await managePost(token, { intent: "bogus" })).status).toBe(400);
    expect(answerOf(await managePost("f".repeat(64), { intent: "confirm" })).status).toBe(404);
    // The address's last alert: redirected away, and its links are gone.
    expect(((await managePost(token, { intent: "cancel", alert: mine.id })) as Response).headers.get("Location")).toBe("/alertas?cancelado=1");
    expect(await db().select().from(listing_alert_tokens).where(sql`lower(${listing_alert_tokens.email}) = ${email}`)).toHaveLength(0);
    expect((await db().select().from(listing_alerts)).map((row) => row.email)).toEqual(["outra@exemplo.com"]);
  });

  it("deletes alerts left unconfirmed for 7 days (the housekeeping round)", async () => {
    await db().update(listing_alerts).set({ created_at: sql`now() - interval '8 days'` });
    await subscribe({ email: "recente@exemplo.com", q: "" });
    await housekeepingRound(test.runtime);
    expect((await pruneAlerts(db())).expired).toBe(0);
    expect((await db().select().from(listing_alerts)).map((row) => row.email)).toEqual(["recente@exemplo.com"]);
  });

  it("LGPD: the person's alerts are in the privacy export and go when the person is anonymised", async () => {
    await subscribe({ email: "titular@exemplo.com", phone: "(84) 97777-6666", q: "finalidade=venda&bairro=Privacidade" });
    await subscribe({ email: "titular2@exemplo.com", phone: "(84)97777-6666", q: "" });
    const lead = await insertLead(test.runtime, { full_name: "Titular Teste", phone: "(84) 97777-6666", email: "titular@exemplo.com" });
    const person = await loadPerson(db(), lead.id);
    // Found by e-mail and by phone digits.
    expect(person?.alerts?.map((alert) => alert.email).sort()).toEqual(["titular2@exemplo.com", "titular@exemplo.com"]);
    const document = personJson(person!, new Date());
    expect(document).toContain("alertas_avise_me");
    expect(document).toContain("Privacidade");
    await anonymizeLeads(db(), null, lead.id, [lead.id]);
    expect((await db().select().from(listing_alerts)).map((row) => row.email)).not.toContain("titular@exemplo.com");
    expect((await db().select().from(listing_alerts)).map((row) => row.email)).not.toContain("titular2@exemplo.com");
    expect(await db().select().from(outbox).where(sql`lower(${outbox.to_address}) like 'titular%'`)).toHaveLength(0);
  });

  it("never caches the alert pages; /imoveis stays cacheable", () => {
    expect(isCacheable("GET", "/alertas", undefined)).toBe(false);
    expect(isCacheable("GET", "/alertas/abc", undefined)).toBe(false);
    expect(isCacheable("GET", "/alertas/abc.data", undefined)).toBe(false);
    expect(isCacheable("GET", "/imoveis", undefined)).toBe(true);
  });

  it("cleans up its listings", async () => {
    await db().delete(properties).where(sql`${properties.neighborhood} = 'Alertópolis'`);
  });
});
