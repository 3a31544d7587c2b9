import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { leads, outbox, settings } from "~/db/schema";
import { enqueueLeadAlert, leadAlertReplyTo } from "~/features/mail/lead-alert.server";
import { deliverDueMail } from "~/features/mail/worker.server";
import { SETTING_KEYS } from "~/features/settings/settings.server";
import { action as authAction } from "~/routes/auth";
import { action as forgotAction } from "~/routes/auth-forgot";
import { action as contactAction } from "~/routes/contact";
import { action as bookingAction } from "~/routes/visit-booking";
import { insertProperty, makeRequest } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { call } from "./auth-helpers";

/**
 * Issue 21: what strangers can put in our e-mails. Finding 8 — the name typed at sign-up went
 * verbatim into a mail sent to any address; the broker's week — the new-lead alert had no
 * Reply-To, so answering it wrote to the site's own address instead of the lead.
 */

const SCAM = "Olá, cliente. URGENTE: pague o sinal em https://pix-golpe.example/pagar";
let ipCounter = 0;
const nextIp = () => `198.18.0.${(++ipCounter % 250) + 1}`;
const unique = (name: string) => `${name}-${crypto.randomBytes(3).toString("hex")}@exemplo.com`;

describe("leadAlertReplyTo", () => {
  it("takes one plain address and refuses anything that could add a header or a recipient", () => {
    expect(leadAlertReplyTo("Maria.Silva+imovel@Exemplo.com.br")).toBe("Maria.Silva+imovel@Exemplo.com.br");
    expect(leadAlertReplyTo("  maria@exemplo.com ")).toBe("maria@exemplo.com");
    for (const bad of [
      null,
      "",
      "maria@exemplo.com\r\nBcc: alvo@exemplo.com",
      "maria@exemplo.com\nBcc: alvo@exemplo.com",
      "maria@exemplo.com, alvo@exemplo.com",
      "maria@exemplo.com;alvo@exemplo.com",
      "Maria <maria@exemplo.com>",
      '"a@b.com" <alvo@exemplo.com>',
      "maria@exemplo",
      "sem-arroba",
      `${"a".repeat(250)}@exemplo.com`,
    ]) {
      expect(leadAlertReplyTo(bad), String(bad)).toBeNull();
    }
  });
});

describe.each(DATABASE_KINDS)("what strangers put in our e-mails on %s", (kind) => {
  let test: TestRuntime;
  let smtp: TestSmtpServer;
  const deliver = () => deliverDueMail({ db: test.runtime.db, env: { ...test.runtime.env, SMTP_URL: smtp.url } });
  const mailTo = (to: string) => smtp.waitFor((m: ReceivedMail) => m.to.includes(to));

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    smtp = await startSmtpServer();
    await test.runtime.db.insert(settings).values({ key: SETTING_KEYS.notificationEmails, value: ["corretor@respostas.com.br"] });
  });
  beforeEach(async () => {
    await test.runtime.db.delete(outbox);
  });
  afterAll(async () => {
    await smtp.stop();
    await test.stop();
  });

  it("a sign-up's name never reaches the address's mailbox: confirmation and new-password e-mails carry none of it", async () => {
    const victim = unique("vitima");
    await call(authAction, makeRequest("/auth", { form: { intent: "cadastro", fullName: SCAM, email: victim, password: "senha-do-golpista-1" } }), nextIp());
    // The same stranger asks for a new password for the unconfirmed account it made.
    await call(forgotAction, makeRequest("/auth/esqueci", { form: { email: victim } }), nextIp());
    await deliver();
    await smtp.waitFor((m) => m.to.includes(victim) && /Redefinição de senha/.test(m.subject));
    const received = smtp.messages.filter((m) => m.to.includes(victim));
    expect(received.map((m) => m.subject).sort()).toEqual([expect.stringMatching(/^Confirme seu email/), expect.stringMatching(/^Redefinição de senha/)].sort());
    for (const mail of received) {
      for (const part of [mail.subject, mail.text, mail.html]) {
        expect(part).not.toContain("URGENTE");
        expect(part).not.toContain("pix-golpe");
        expect(part).not.toContain("pague o sinal");
      }
      expect(mail.text.startsWith("Olá!\n")).toBe(true);
    }
    // An address that already has an account: its owner is told of the attempt, still without the name.
    await call(authAction, makeRequest("/auth", { form: { intent: "cadastro", fullName: `${SCAM} 2`, email: victim, password: "outra-senha-dele-1" } }), nextIp());
    await deliver();
    for (const mail of smtp.messages.filter((m) => m.to.includes(victim))) expect(mail.text).not.toContain("URGENTE");
  });

  it("the new-lead alert answers to the lead: Reply-To is the lead's e-mail, and only a plain address gets there", async () => {
    const answer = await contactAction({
      request: makeRequest("/contato", {
        form: { name: "Lead Responde", email: "lead.responde@exemplo.com", phone: "(84) 98888-7777", message: "Quero visitar o apartamento." },
      }),
      params: {},
      context: { cspNonce: "n", clientIp: nextIp() },
    } as never);
    expect(answer).toMatchObject({ ok: true });
    await deliver();
    const alert = await mailTo("corretor@respostas.com.br");
    expect(alert.subject).toBe("Novo lead: Lead Responde");
    expect(alert.raw).toMatch(/^Reply-To: lead\.responde@exemplo\.com\r?$/m);
    expect(alert.from).not.toBe("lead.responde@exemplo.com");

    // A lead without an e-mail: no Reply-To at all (a reply then goes to the site's address, as before).
    smtp.messages.length = 0;
    const property = await insertProperty(test.runtime, { title: "Casa para visitar" });
    const booked = await bookingAction({
      request: makeRequest("/agendar-visita", { form: { full_name: "Lead Sem Email", phone: "(84) 98888-6666", property_id: property.id } }),
      params: {},
      context: { cspNonce: "n", clientIp: nextIp() },
    } as never);
    expect(booked).toMatchObject({ ok: true });
    await deliver();
    const withoutEmail = await mailTo("corretor@respostas.com.br");
    expect(withoutEmail.raw.split(/\r?\n\r?\n/)[0]).not.toMatch(/^Reply-To:/im);
  });

  it("a portal's lead with a crafted e-mail cannot add a header or a recipient to the alert", async () => {
    const [lead] = await test.runtime.db.insert(leads).values({ full_name: "Lead Portal", phone: "(84) 98888-5555" }).returning();
    await enqueueLeadAlert(test.runtime.db, test.runtime.env, ["corretor@respostas.com.br"], {
      leadId: lead.id,
      fullName: "Lead Portal",
      phone: "(84) 98888-5555",
      email: "lead@portal.com\r\nBcc: alvo@exemplo.com",
      interest: "comprar",
      message: null,
      source: "portal",
      property: null,
      portal: { name: "VivaReal", temperature: null },
    });
    const [row] = await test.runtime.db.select().from(outbox).where(eq(outbox.lead_id, lead.id));
    expect(row.reply_to).toBeNull();
    smtp.messages.length = 0;
    await deliver();
    const alert = await mailTo("corretor@respostas.com.br");
    expect(alert.to).toEqual(["corretor@respostas.com.br"]);
    const headers = alert.raw.split(/\r?\n\r?\n/)[0];
    expect(headers).not.toMatch(/^(Reply-To|Bcc):/im);
    // The address is shown as the portal sent it, on one line, and is not made a mailto: link.
    expect(alert.text).toContain("E-mail: lead@portal.com Bcc: alvo@exemplo.com");
    expect(alert.html).not.toContain("mailto:");
  });
});
