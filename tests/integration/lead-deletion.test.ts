import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leads, outbox, settings, visits } from "~/db/schema";
import { addLeadNote } from "~/features/leads/lead-page.server";
import { deliverDueMail } from "~/features/mail/worker.server";
import { ANONYMIZED } from "~/features/privacy/markers";
import { runRetention } from "~/features/privacy/retention.server";
import { action as contactAction } from "~/routes/contact";
import { action as leadsAction } from "~/routes/crm-leads";
import { action as privacyAction, loader as privacyLoader } from "~/routes/crm-privacy";
import { loader as exportLoader } from "~/routes/crm-privacy-export";
import { everyTextValue } from "../helpers/database-text";
import { createSignedInUser, insertLead, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";

/**
 * Issue 21, finding 2: deleting a lead set its e-mails' lead_id to NULL, so the alert with the
 * person's name, phone and message stayed (and was still sent once SMTP was configured), and the
 * privacy tools could no longer find it. Now nothing of a deleted lead is left in any text column
 * of any table, and the privacy tools find (and anonymise) every e-mail about a person.
 */

let ipCounter = 0;
const context = () => ({ cspNonce: "n", clientIp: `198.51.100.${(++ipCounter % 250) + 1}` });
const NOTIFY = ["corretor@apagar.com.br", "assistente@apagar.com.br"];

/** The columns (table.column) where any needle appears, case-insensitively. */
async function whereFound(test: TestRuntime, needles: string[]): Promise<string[]> {
  const lowered = needles.map((needle) => needle.toLowerCase());
  const hits = new Set<string>();
  for (const { table, column, value } of await everyTextValue(test.runtime.db)) {
    const text = value.toLowerCase();
    if (lowered.some((needle) => text.includes(needle))) hits.add(`${table}.${column}`);
  }
  return [...hits].sort();
}

function jsonRequest(path: string, body: unknown, cookie: string): Request {
  return new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://localhost:3000", Cookie: cookie },
    body: JSON.stringify(body),
  });
}

describe.each(DATABASE_KINDS)("a deleted or anonymised lead leaves nothing behind on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;
  let smtp: TestSmtpServer;
  const deliver = (url: string) => deliverDueMail({ db: test.runtime.db, env: { ...test.runtime.env, SMTP_URL: url } });
  const actor = () => ({ id: admin.id, email: admin.email, name: "Admin Teste" });

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    admin = await createSignedInUser(test.runtime, "admin");
    smtp = await startSmtpServer();
    await test.runtime.db.insert(settings).values({ key: "notification_emails", value: NOTIFY });
  });
  afterAll(async () => {
    await smtp.stop();
    await test.stop();
  });

  it("deleting a lead leaves no text of it in any column of any table, and its alert never goes out", async () => {
    const person = {
      name: "Clarice Apagada Nogueira",
      phone: "(84) 97531-8642",
      digits: "84975318642",
      email: "clarice.apagada@exemplo.com",
      message: "Quero alugar perto da lagoa de Extremoz",
      note: "Clarice prefere contato pelo WhatsApp à noite",
      visitNote: "Clarice vem com o cachorro Biscoito",
    };
    const answer = await contactAction({
      request: makeRequest("/contato", { form: { name: person.name, email: person.email, phone: person.phone, message: person.message } }),
      params: {},
      context: context(),
    } as never);
    expect(answer).toMatchObject({ ok: true });
    const [lead] = await test.runtime.db.select().from(leads).where(eq(leads.full_name, person.name));
    expect(await addLeadNote(test.runtime.db, actor(), lead.id, person.note)).toBe(true);
    await test.runtime.db.insert(visits).values({ lead_id: lead.id, scheduled_at: new Date("2026-12-01T13:00:00Z"), notes: person.visitNote });
    // One alert goes out; the other is refused once and waits for its retry.
    const refusingOnce = await startSmtpServer({ failFirst: 1 });
    await deliver(refusingOnce.url);
    await refusingOnce.stop();
    const alerts = await test.runtime.db.select().from(outbox).where(eq(outbox.lead_id, lead.id));
    expect(alerts.map((row) => row.status).sort()).toEqual(["pending", "sent"]);

    const needles = [person.name, "Clarice", person.phone, person.digits, person.email, person.message, "Extremoz", "Biscoito"];
    expect((await whereFound(test, needles)).length).toBeGreaterThan(3);

    const deleted = await leadsAction({
      request: makeRequest("/crm/leads", { form: { intent: "delete", id: lead.id }, cookie: admin.cookie }),
      params: {},
      context: context(),
    } as never);
    expect(deleted).toMatchObject({ ok: true });

    expect(await whereFound(test, needles)).toEqual([]);
    // The waiting alert is gone with the lead: nothing about the person is sent later.
    await test.runtime.db.update(outbox).set({ next_attempt_at: new Date(0) });
    await deliver(smtp.url);
    expect(smtp.messages.filter((m) => m.text.includes("Clarice") || m.subject.includes("Clarice"))).toEqual([]);
  });

  it("the privacy tools find every e-mail about the person — linked to a lead, to their address, or naming their e-mail or phone — and anonymising scrubs them all", async () => {
    const person = { name: "Otília Procurada Dantas", phone: "(84) 96420-1357", digits: "84964201357", email: "Otilia.Procurada@Exemplo.com", message: "Busco terreno em São Gonçalo" };
    await contactAction({
      request: makeRequest("/contato", { form: { name: person.name, email: person.email, phone: person.phone, message: person.message } }),
      params: {},
      context: context(),
    } as never);
    const [lead] = await test.runtime.db.select().from(leads).where(eq(leads.full_name, person.name));
    // Messages about her that are not linked to her lead: one to her address, one naming her
    // e-mail (another case), one naming her phone in digits with the country code.
    const unlinked = await test.runtime.db
      .insert(outbox)
      .values([
        { kind: "verify-email", to_address: person.email.toLowerCase(), subject: "Confirme seu email", text_body: "Olá!" },
        { kind: "aviso", to_address: "corretor@apagar.com.br", subject: "Retorno pendente", text_body: `Responder a ${person.email.toUpperCase()} sobre o terreno` },
        { kind: "aviso", to_address: "corretor@apagar.com.br", subject: "Ligação perdida", text_body: `Ligar para +55${person.digits} amanhã` },
      ])
      .returning({ id: outbox.id });
    // Not hers: her digits inside a longer number.
    const [notHers] = await test.runtime.db
      .insert(outbox)
      .values({ kind: "aviso", to_address: "corretor@apagar.com.br", subject: "Protocolo", text_body: `Protocolo 99${person.digits}07 do cartório` })
      .returning({ id: outbox.id });
    const linked = await test.runtime.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.lead_id, lead.id));
    const hers = [...linked, ...unlinked].map((row) => row.id).sort();

    const page = (await privacyLoader({ request: makeRequest(`/crm/privacidade?lead=${lead.id}`, { cookie: admin.cookie }), params: {}, context: context() } as never)) as {
      person: { emails: { id: string }[] };
    };
    expect(page.person.emails.map((mail) => mail.id).sort()).toEqual(hers);
    const exported = await ((await exportLoader({ request: makeRequest(`/crm/privacidade/exportar?lead=${lead.id}&formato=json`, { cookie: admin.cookie }), params: {}, context: context() } as never)) as Response).json();
    expect(JSON.stringify(exported)).toContain("Ligar para +55");

    const done = await privacyAction({
      request: jsonRequest("/crm/privacidade", { intent: "anonymize", lead: lead.id, leadIds: [lead.id] }, admin.cookie),
      params: {},
      context: context(),
    } as never);
    expect(done).toMatchObject({ ok: true });
    expect(await whereFound(test, [person.name, "Otília", person.phone, person.email, person.message, `+55${person.digits}`])).toEqual([]);
    const scrubbed = await test.runtime.db.select().from(outbox).where(inArray(outbox.id, hers));
    for (const row of scrubbed) expect(row).toMatchObject({ to_address: ANONYMIZED.emailAddress, subject: ANONYMIZED.emailSubject, reply_to: null, html_body: null });
    const [untouched] = await test.runtime.db.select().from(outbox).where(eq(outbox.id, notHers.id));
    expect(untouched.text_body).toBe(`Protocolo 99${person.digits}07 do cartório`);
  });

  it("the retention job scrubs the e-mails that name an expired lead's contact, linked or not", async () => {
    const old = await insertLead(test.runtime, { full_name: "Severino Antigo", phone: "(84) 93333-2222", email: "severino.antigo@exemplo.com", created_at: new Date("2020-01-10T12:00:00Z") });
    const [mail] = await test.runtime.db
      .insert(outbox)
      .values({ kind: "aviso", to_address: "corretor@apagar.com.br", subject: "Severino ligou", text_body: "Severino Antigo, severino.antigo@exemplo.com, quer vender", status: "sent" })
      .returning({ id: outbox.id });
    const result = await runRetention(test.runtime.db, new Date("2026-11-20T12:00:00Z"));
    expect(result.leads).toBeGreaterThanOrEqual(1);
    expect((await test.runtime.db.select().from(leads).where(eq(leads.id, old.id)))[0].phone).toBe(ANONYMIZED.phone);
    const [after] = await test.runtime.db.select().from(outbox).where(eq(outbox.id, mail.id));
    expect(after).toMatchObject({ subject: ANONYMIZED.emailSubject, text_body: ANONYMIZED.text, to_address: ANONYMIZED.emailAddress });
    expect(await whereFound(test, ["Severino", "severino.antigo"])).toEqual([]);
  });
});
