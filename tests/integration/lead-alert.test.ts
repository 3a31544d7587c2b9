import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { leads, outbox, settings } from "~/db/schema";
import { leadAlertMail } from "~/features/mail/lead-alert.server";
import { deliverDueMail } from "~/features/mail/worker.server";
import { SETTING_KEYS } from "~/features/settings/settings.server";
import { action as contactAction } from "~/routes/contact";
import { action as bookingAction } from "~/routes/visit-booking";
import { insertProperty, makeRequest } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { type TestSmtpServer, startSmtpServer } from "../helpers/smtp-server";

/** A different client address per request: the per-address limit is not what these tests are about. */
let ipCounter = 0;
const context = () => ({ cspNonce: "n", clientIp: `198.51.100.${(ipCounter++ % 250) + 1}` });

const NOTIFY = ["corretor@teste.com.br", "assistente@teste.com.br"];

describe("leadAlertMail", () => {
  it("escapes what the visitor typed and links phone, WhatsApp, e-mail, property and CRM", () => {
    const mail = leadAlertMail(
      { publicUrl: "https://corretor.exemplo" },
      {
        leadId: "11111111-1111-4111-8111-111111111111",
        fullName: "Maria <b>Silva</b>\r\nBcc: x@y.com",
        phone: "(84) 99999-1234",
        email: "maria@teste.com",
        interest: "comprar",
        message: `Olá <script>alert("x")</script>`,
        source: "visita",
        property: { id: "22222222-2222-4222-8222-222222222222", codigo: "CA-1", title: "Casa & quintal" },
      },
    );
    expect(mail.subject).toBe("Novo lead: Maria <b>Silva</b> Bcc: x@y.com");
    expect(mail.html).not.toMatch(/<script|<b>/);
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.html).toContain('href="tel:+5584999991234"');
    expect(mail.html).toContain('href="https://wa.me/5584999991234"');
    expect(mail.html).toContain('href="mailto:maria@teste.com"');
    expect(mail.html).toContain('href="https://corretor.exemplo/imoveis/22222222-2222-4222-8222-222222222222"');
    expect(mail.html).toContain('href="https://corretor.exemplo/crm/leads/11111111-1111-4111-8111-111111111111"');
    expect(mail.html).toContain("CA-1 — Casa &amp; quintal");
    expect(mail.text).toContain(`Olá <script>alert("x")</script>`);
    expect(mail.text).toContain("https://corretor.exemplo/crm/leads/11111111-1111-4111-8111-111111111111");
  });
});

describe.each(DATABASE_KINDS)("new-lead alert on %s", (kind) => {
  let test: TestRuntime;
  let smtp: TestSmtpServer;
  const deliver = () => deliverDueMail({ db: test.runtime.db, env: { ...test.runtime.env, SMTP_URL: smtp.url } });

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    smtp = await startSmtpServer();
    // One address twice (other case): it gets one alert.
    await test.runtime.db.insert(settings).values({ key: SETTING_KEYS.notificationEmails, value: [...NOTIFY, "CORRETOR@teste.com.br"] });
  });
  beforeEach(async () => {
    await test.runtime.db.delete(outbox);
    smtp.messages.length = 0;
  });
  afterAll(async () => {
    await smtp.stop();
    await test.stop();
  });

  /** The one link of a message's text that goes to `path`. */
  const linkTo = (text: string, pathStart: string) =>
    [...text.matchAll(/https?:\/\/\S+/g)].map((m) => new URL(m[0])).find((url) => url.pathname.startsWith(pathStart));

  it("a contact message alerts every notification address, with the lead's links", async () => {
    const response = await contactAction({
      request: makeRequest("/contato", {
        form: { name: "Maria Alerta", email: "maria.alerta@teste.com", phone: "(84) 98888-1234", message: "Quero vender meu apartamento." },
      }),
      params: {},
      context: context(),
    } as never);
    expect(response).toMatchObject({ ok: true });
    const [lead] = await test.runtime.db.select().from(leads).where(eq(leads.full_name, "Maria Alerta"));
    const rows = await test.runtime.db.select().from(outbox);
    expect(rows.map((row) => row.to_address).sort()).toEqual([...NOTIFY].sort());
    expect(rows.every((row) => row.lead_id === lead.id && row.kind === "lead-alert")).toBe(true);

    expect(await deliver()).toEqual({ sent: 2, failed: 0, retried: 0 });
    for (const address of NOTIFY) {
      const mail = await smtp.waitFor((m) => m.to.includes(address));
      expect(mail.subject).toBe("Novo lead: Maria Alerta");
      expect(mail.text).toContain("Quero vender meu apartamento.");
      expect(mail.text).toContain("Interesse: Comprar");
      expect(linkTo(mail.text, "/crm/leads/")?.toString()).toBe(`http://localhost:3000/crm/leads/${lead.id}`);
      expect(mail.html).toContain('href="tel:+5584988881234"');
      expect(mail.html).toContain('href="https://wa.me/5584988881234"');
      expect(mail.html).toContain('href="mailto:maria.alerta@teste.com"');
      expect(mail.html).toContain(`href="http://localhost:3000/crm/leads/${lead.id}"`);
    }
    expect(smtp.messages).toHaveLength(2);
  });

  it("a visit booking alerts with the property and its public link", async () => {
    const property = await insertProperty(test.runtime, { title: "Apartamento na Ponta Negra" });
    const response = await bookingAction({
      request: makeRequest("/agendar-visita", { form: { full_name: "João Visita", phone: "(84) 97777-4321", property_id: property.id } }),
      params: {},
      context: context(),
    } as never);
    expect(response).toMatchObject({ ok: true });
    const [lead] = await test.runtime.db.select().from(leads).where(eq(leads.full_name, "João Visita"));
    expect(await deliver()).toEqual({ sent: 2, failed: 0, retried: 0 });
    for (const address of NOTIFY) {
      const mail = await smtp.waitFor((m) => m.to.includes(address));
      expect(mail.subject).toBe("Novo lead: João Visita");
      expect(mail.text).toContain(`${property.codigo} — Apartamento na Ponta Negra`);
      expect(linkTo(mail.text, "/imoveis/")?.toString()).toBe(`http://localhost:3000/imoveis/${property.id}`);
      expect(linkTo(mail.text, "/crm/leads/")?.toString()).toBe(`http://localhost:3000/crm/leads/${lead.id}`);
      expect(mail.html).toContain('href="https://wa.me/5584977774321"');
      // No e-mail given: no mailto.
      expect(mail.html).not.toContain("mailto:");
    }
  });

  it("the honeypot stores nothing and sends nothing", async () => {
    const response = await contactAction({
      request: makeRequest("/contato", {
        form: { name: "Robô Spam", email: "robo@teste.com", phone: "(84) 96666-0000", message: "Compre seguidores agora!", website: "http://spam" },
      }),
      params: {},
      context: context(),
    } as never);
    expect(response).toMatchObject({ ok: true });
    expect(await test.runtime.db.select().from(leads).where(eq(leads.full_name, "Robô Spam"))).toHaveLength(0);
    expect(await test.runtime.db.select().from(outbox)).toHaveLength(0);
  });

  it("a lead that fails to insert sends nothing", async () => {
    const exec = (statement: string) =>
      test.kind === "pglite" ? test.runtime.database.pglite!.exec(statement) : test.runtime.database.pool!.query(statement);
    // The database refuses this one lead (as a full disk or a broken constraint would).
    await exec(`create function refuse_test_lead() returns trigger as $$
      begin if new.full_name = 'Lead Recusado' then raise exception 'recusado'; end if; return new; end; $$ language plpgsql`);
    await exec("create trigger refuse_test_lead before insert on leads for each row execute function refuse_test_lead()");
    try {
      const response = await contactAction({
        request: makeRequest("/contato", {
          form: { name: "Lead Recusado", email: "recusado@teste.com", phone: "(84) 95555-0000", message: "Esta mensagem não será salva." },
        }),
        params: {},
        context: context(),
      } as never);
      expect((response as { init?: { status?: number } }).init?.status).toBe(500);
      expect(await test.runtime.db.select().from(outbox)).toHaveLength(0);
      expect(await deliver()).toEqual({ sent: 0, failed: 0, retried: 0 });
      expect(smtp.messages).toHaveLength(0);
    } finally {
      await exec("drop trigger refuse_test_lead on leads");
      await exec("drop function refuse_test_lead()");
    }
  });

  it("an alert that cannot be enqueued leaves no lead behind", async () => {
    const before = await test.runtime.db.select({ n: sql<number>`count(*)::int` }).from(leads);
    const exec = (statement: string) =>
      test.kind === "pglite" ? test.runtime.database.pglite!.exec(statement) : test.runtime.database.pool!.query(statement);
    await exec("alter table outbox add constraint refuse_all check (kind <> 'lead-alert') not valid");
    try {
      const response = await contactAction({
        request: makeRequest("/contato", {
          form: { name: "Lead Sem Aviso", email: "semaviso@teste.com", phone: "(84) 94444-0000", message: "O aviso falha, o lead também." },
        }),
        params: {},
        context: context(),
      } as never);
      expect((response as { init?: { status?: number } }).init?.status).toBe(500);
      const after = await test.runtime.db.select({ n: sql<number>`count(*)::int` }).from(leads);
      expect(after[0].n).toBe(before[0].n);
    } finally {
      await exec("alter table outbox drop constraint refuse_all");
    }
  });
});
