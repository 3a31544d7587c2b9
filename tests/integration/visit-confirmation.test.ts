import { desc, eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outbox, user, visits } from "~/db/schema";
import { deliverDueMail } from "~/features/mail/worker.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { queueVisitReminders, visitorMailDeps } from "~/features/visits/visitor-mail.server";
import { action as visitsAction, loader as visitsLoader } from "~/routes/crm-visits";
import { context } from "../helpers/authorization";
import { createSignedInUser, insertLead, insertProperty, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { type ReceivedMail, type TestSmtpServer, startSmtpServer } from "../helpers/smtp-server";
import { brokerDay } from "~/lib/format";

/**
 * Issue 25, item 6: a visit staff schedule in the CRM sends the visitor one confirmation with an
 * .ics (through the outbox and a real SMTP server); a new time sends the same event with the next
 * SEQUENCE, a cancellation cancels it, and the day-before reminder is queued once.
 */

const utcOf = (local: string) => new Date(`${local}:00-03:00`);
/** The broker's day `days` from today ("2026-12-01"). */
const dayIn = (days: number) => brokerDay(new Date(Date.now() + days * 86_400_000));

/** The iCalendar text as records: lines unfolded, values unescaped (as tests/integration/visits.test.ts). */
function parseIcs(text: string): { calendar: Record<string, string>; events: Record<string, string>[] } {
  const lines = text.replace(/\r\n[ \t]/g, "").split(/\r?\n/);
  const calendar: Record<string, string> = {};
  const events: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of lines) {
    if (line === "BEGIN:VEVENT") current = {};
    else if (line === "END:VEVENT") {
      events.push(current!);
      current = null;
    } else {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const value = line.slice(colon + 1).replace(/\\n/gi, "\n").replace(/\\([,;\\])/g, "$1");
      (current ?? calendar)[line.slice(0, colon).split(";")[0]] = value;
    }
  }
  return { calendar, events };
}
const icsStamp = (date: Date) => date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/** The .ics attached to a received message, parsed. */
async function attachedIcs(mail: ReceivedMail) {
  const parsed = await simpleParser(mail.raw);
  const ics = parsed.attachments.filter((attachment) => attachment.filename === "visita.ics");
  expect(ics).toHaveLength(1);
  expect(ics[0].contentType).toBe("text/calendar");
  return parseIcs(ics[0].content.toString("utf8"));
}

describe.each(DATABASE_KINDS)("the visitor's confirmation and reminder on %s", (kind) => {
  let test: TestRuntime;
  let smtp: TestSmtpServer;
  let staff: TestUser;

  const withSmtp = () => ({ db: test.runtime.db, env: { ...test.runtime.env, SMTP_URL: smtp.url } });
  const post = async (body: Record<string, unknown>) => {
    const request = new Request("http://localhost:3000/crm/visitas", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: staff.cookie, Origin: "http://localhost:3000" },
      body: JSON.stringify(body),
    });
    const result = (await visitsAction({ request, params: {}, context } as never)) as { data?: { ok: boolean } } & { ok?: boolean };
    return result.data ?? result;
  };
  const latestVisit = async () => (await test.runtime.db.select().from(visits).orderBy(desc(visits.created_at)).limit(1))[0];

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    smtp = await startSmtpServer();
    staff = await createSignedInUser(test.runtime, "corretor");
    await test.runtime.db.update(user).set({ name: "Carla Corretora" }).where(eq(user.id, staff.id));
  });
  beforeEach(async () => {
    await test.runtime.db.delete(outbox);
    smtp.messages.length = 0;
  });
  afterAll(async () => {
    await smtp.stop();
    await test.stop();
  });

  it("sends one confirmation with a valid .ics; a new time sends SEQUENCE 1, a cancellation cancels", async () => {
    const broker = await loadBrokerProfile(test.runtime.db);
    const property = await insertProperty(test.runtime, {
      title: "Casa em Ponta Negra",
      neighborhood: "Ponta Negra",
      city: "Natal",
      street_address: "Rua das Dunas",
      address_number: "120",
    });
    const lead = await insertLead(test.runtime, { full_name: "Vera Visitante", email: "vera@teste.com" });
    const when = `${dayIn(30)}T15:30`;
    const [y, m, d] = dayIn(30).split("-");
    expect(await post({ intent: "create", values: { lead_id: lead.id, property_id: property.id, scheduled_at: when } })).toMatchObject({ ok: true });
    const visit = await latestVisit();

    expect(await deliverDueMail(withSmtp())).toMatchObject({ sent: 1, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.to).toEqual(["vera@teste.com"]);
    expect(mail.subject).toContain("Visita confirmada");
    expect(mail.text).toContain(`${d}/${m}/${y} às 15:30`);
    expect(mail.text).toContain("Rua das Dunas, 120");
    expect(mail.text).toContain(broker.phone);
    const first = await attachedIcs(mail);
    expect(first.events).toHaveLength(1);
    const [event] = first.events;
    expect(event.DTSTART).toBe(icsStamp(utcOf(when)));
    expect(event.DTSTART.endsWith("Z")).toBe(true);
    expect(event.SUMMARY).toBe(`Visita: Casa em Ponta Negra — ${broker.name}`);
    expect(event.LOCATION).toBe("Rua das Dunas, 120 — Ponta Negra — Natal");
    expect(event.SEQUENCE).toBe("0");
    expect(event.DESCRIPTION).toContain(broker.phone);
    // The outbox row belongs to the lead: listed on its timeline, deleted with it.
    const [row] = await test.runtime.db.select().from(outbox);
    expect(row.lead_id).toBe(lead.id);
    expect(row.kind).toBe("visit-confirmation");

    // Only the notes change: nothing to tell the visitor.
    await post({ intent: "update", id: visit.id, values: { lead_id: lead.id, property_id: property.id, scheduled_at: when, notes: "Chave na portaria" } });
    expect(await deliverDueMail(withSmtp())).toMatchObject({ sent: 0 });

    const later = `${dayIn(31)}T09:00`;
    await post({ intent: "update", id: visit.id, values: { lead_id: lead.id, property_id: property.id, scheduled_at: later } });
    expect(await deliverDueMail(withSmtp())).toMatchObject({ sent: 1 });
    const updated = smtp.messages[1];
    expect(updated.subject).toContain("Visita reagendada");
    const second = (await attachedIcs(updated)).events[0];
    expect(second.UID).toBe(event.UID);
    expect(second.SEQUENCE).toBe("1");
    expect(second.DTSTART).toBe(icsStamp(utcOf(later)));

    await post({ intent: "status", id: visit.id, status: "cancelada" });
    expect(await deliverDueMail(withSmtp())).toMatchObject({ sent: 1 });
    const cancelled = smtp.messages[2];
    expect(cancelled.subject).toContain("Visita cancelada");
    const third = await attachedIcs(cancelled);
    expect(third.calendar.METHOD).toBe("CANCEL");
    expect(third.events[0]).toMatchObject({ UID: event.UID, SEQUENCE: "2", STATUS: "CANCELLED" });
  });

  it("offers 'Confirmar por WhatsApp' on a scheduled visit: the settings' template, filled, with the date", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Walter Zap", phone: "(84) 98888-1212" });
    const when = `${dayIn(3)}T10:30`;
    await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: when } });
    const request = new Request("http://localhost:3000/crm/visitas", { headers: { Cookie: staff.cookie } });
    const page = (await visitsLoader({ request, params: {}, context } as never)) as Awaited<ReturnType<typeof visitsLoader>>;
    const shown = page.agenda.days.flatMap((day) => day.visits).find((visit) => visit.lead.id === lead.id)!;
    const link = new URL(shown.whatsapp_confirm!);
    expect(link.origin + link.pathname).toBe("https://wa.me/5584988881212");
    const [y, m, d] = dayIn(3).split("-");
    expect(link.searchParams.get("text")).toBe(`Olá, Walter! Passando para confirmar nossa visita ao imóvel . Posso contar com você? Data: ${d}/${m}/${y} às 10:30.`);
  });

  it("sends nothing to a lead without an e-mail, nor for a visit recorded after the fact", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Sem Email" });
    expect(await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: `${dayIn(32)}T10:00` } })).toMatchObject({ ok: true });
    const past = await insertLead(test.runtime, { full_name: "Já Visitou", email: "ja@teste.com" });
    expect(await post({ intent: "create", values: { lead_id: past.id, scheduled_at: `${dayIn(-3)}T10:00` } })).toMatchObject({ ok: true });
    expect(await test.runtime.db.select().from(outbox)).toHaveLength(0);
  });

  it("queues the day-before reminder once (two runs), and again for a new time", async () => {
    const deps = await visitorMailDeps(test.runtime.db, test.runtime.env.publicUrl);
    const lead = await insertLead(test.runtime, { full_name: "Rui Lembrado", email: "rui@teste.com" });
    const day = dayIn(40);
    const when = `${day}T10:00`;
    await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: when } });
    const visit = await latestVisit();
    // Another visit the day after tomorrow, and one tomorrow but cancelled: no reminder for them.
    await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: `${dayIn(41)}T10:00` } });
    await post({ intent: "create", values: { lead_id: lead.id, scheduled_at: `${day}T16:00` } });
    await post({ intent: "status", id: (await latestVisit()).id, status: "cancelada" });
    await test.runtime.db.delete(outbox);

    // 22:30 in Natal the evening before (01:30 UTC on the day): "tomorrow" is the broker's day.
    const now = new Date(utcOf(`${day}T00:00`).getTime() - 90 * 60_000);
    const [a, b] = await Promise.all([queueVisitReminders(test.runtime.db, deps, now), queueVisitReminders(test.runtime.db, deps, now)]);
    expect(a + b).toBe(1);
    expect(await queueVisitReminders(test.runtime.db, deps, now)).toBe(0);
    expect(await deliverDueMail(withSmtp())).toMatchObject({ sent: 1 });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0].subject).toContain("Lembrete");
    expect(smtp.messages[0].to).toEqual(["rui@teste.com"]);
    const ics = (await attachedIcs(smtp.messages[0])).events[0];
    expect(ics.DTSTART).toBe(icsStamp(utcOf(when)));

    // A new time tomorrow earns a new reminder.
    await test.runtime.db.update(visits).set({ scheduled_at: utcOf(`${day}T11:00`) }).where(eq(visits.id, visit.id));
    expect(await queueVisitReminders(test.runtime.db, deps, now)).toBe(1);
    const [{ n }] = await test.runtime.db.select({ n: sql<number>`count(*)::int` }).from(outbox).where(eq(outbox.kind, "visit-reminder"));
    expect(n).toBe(2);
  });
});
