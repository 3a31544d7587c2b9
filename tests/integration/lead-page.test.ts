import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, lead_events, leads, outbox, visits } from "~/db/schema";
import { changeLeadStatus } from "~/features/leads/crm.server";
import { samePersonQuery } from "~/features/leads/lead-page.server";
import { enqueueMail } from "~/features/mail/outbox.server";
import { deliverDueMail } from "~/features/mail/worker.server";
import type { TimelineItem } from "~/features/leads/timeline.server";
import { action as leadAction, loader as leadLoader } from "~/routes/crm-lead";
import { action as leadsAction } from "~/routes/crm-leads";
import { createSignedInUser, insertLead, insertProperty, makeRequest, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { type TestSmtpServer, startSmtpServer } from "../helpers/smtp-server";

const context = { cspNonce: "n", clientIp: "192.0.2.60" };
type Answer = { ok: boolean; message: string };
type Page = Awaited<ReturnType<typeof leadLoader>>;

async function run(work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await settle(work);
  } catch (error) {
    if (error && typeof error === "object" && "init" in error) return error;
    throw error;
  }
}
const answer = (result: unknown): { status: number; body: Answer } =>
  result && typeof result === "object" && "init" in result
    ? { status: (result as { init: { status: number } }).init.status, body: (result as unknown as { data: Answer }).data }
    : { status: 200, body: result as Answer };

describe.each(DATABASE_KINDS)("lead page on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "corretor");
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.stop();
    await test.stop();
  });

  const load = async (id: string) =>
    (await run(() => leadLoader({ request: makeRequest(`/crm/leads/${id}`, { cookie: staff.cookie }), params: { id }, context } as never))) as Page;
  const post = async (id: string, form: Record<string, string>) =>
    answer(await run(() => leadAction({ request: makeRequest(`/crm/leads/${id}`, { form, cookie: staff.cookie }), params: { id }, context } as never)));
  const ofKind = <K extends TimelineItem["kind"]>(page: Page, kind: K) =>
    page.timeline.filter((item): item is Extract<TimelineItem, { kind: K }> => item.kind === kind);

  it("records every status change with its actor, whichever way it was made", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Ana Status", status: "novo" });

    // 1. The CRM's lead form (crm-leads action, intent update).
    const form = answer(
      await run(() =>
        leadsAction({
          request: makeRequest("/crm/leads", {
            form: { intent: "update", id: lead.id, full_name: "Ana Status", phone: lead.phone, interest_type: "comprar", origin: "site", status: "em_atendimento" },
            cookie: staff.cookie,
          }),
          params: {},
          context,
        } as never),
      ),
    );
    expect(form.status).toBe(200);
    // 2. changeLeadStatus (the board and this page), as another staff member.
    await changeLeadStatus(test.runtime.db, { id: "outro-id", email: "outra@teste.com", name: "Outra Corretora" }, lead.id, "convertido");
    // The same status again records nothing.
    await changeLeadStatus(test.runtime.db, { id: "outro-id", email: "outra@teste.com", name: "Outra Corretora" }, lead.id, "convertido");
    // 3. A raw SQL update (a console, a script): recorded, with no actor.
    await test.runtime.db.execute(sql`update leads set status = 'perdido' where id = ${lead.id}`);
    // 4. This page's own action.
    expect((await post(lead.id, { intent: "status", status: "em_atendimento" })).status).toBe(200);

    const page = await load(lead.id);
    const changes = ofKind(page, "status");
    expect(changes.map(({ from, to, actor }) => ({ from, to, actor }))).toEqual([
      { from: "perdido", to: "em_atendimento", actor: "Usuário Teste" },
      { from: "convertido", to: "perdido", actor: null },
      { from: "em_atendimento", to: "convertido", actor: "Outra Corretora" },
      { from: "novo", to: "em_atendimento", actor: "Usuário Teste" },
    ]);
    const [created] = ofKind(page, "created");
    expect(created).toMatchObject({ status: "novo", actor: null });
    // Newest first throughout.
    const times = page.timeline.map((item) => item.at);
    expect([...times].sort().reverse()).toEqual(times);
    const [event] = await test.runtime.db.select().from(lead_events).where(and(eq(lead_events.lead_id, lead.id), eq(lead_events.to_status, "convertido")));
    expect(event.actor_id).toBe("outro-id");
    expect(page.lead.status).toBe("em_atendimento");
  });

  it("a lead created in the CRM starts its timeline with who created it", async () => {
    const result = answer(
      await run(() =>
        leadsAction({
          request: makeRequest("/crm/leads", {
            form: { intent: "create", full_name: "Bruno Criado", phone: "(84) 91234-0001", interest_type: "alugar", origin: "indicacao", status: "novo" },
            cookie: staff.cookie,
          }),
          params: {},
          context,
        } as never),
      ),
    );
    expect(result.status).toBe(200);
    const [lead] = await test.runtime.db.select().from(leads).where(eq(leads.full_name, "Bruno Criado"));
    expect(ofKind(await load(lead.id), "created")).toMatchObject([{ actor: "Usuário Teste", status: "novo" }]);
  });

  it("adds notes with author and date, refusing empty or too long ones with a message", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Carla Notas" });
    expect(await post(lead.id, { intent: "note", body: "  Primeira conversa: quer 3 quartos.\nVolta a ligar sexta.  " })).toEqual({
      status: 200,
      body: { ok: true, message: "Nota adicionada!" },
    });
    expect((await post(lead.id, { intent: "note", body: "Segunda nota" })).status).toBe(200);
    expect(await post(lead.id, { intent: "note", body: "   " })).toEqual({ status: 400, body: { ok: false, message: "Escreva a nota" } });
    expect(await post(lead.id, { intent: "note", body: "x".repeat(2001) })).toEqual({
      status: 400,
      body: { ok: false, message: "Nota muito longa (máximo de 2000 caracteres)" },
    });
    expect((await post(lead.id, { intent: "note", body: "x".repeat(2000) })).status).toBe(200);
    expect((await post(lead.id, { intent: "note", body: "nul \u0000 aqui" })).status).toBe(400);

    const notes = ofKind(await load(lead.id), "note");
    expect(notes.map((note) => note.body)).toEqual(["x".repeat(2000), "Segunda nota", "Primeira conversa: quer 3 quartos.\nVolta a ligar sexta."]);
    expect(notes.every((note) => note.actor === "Usuário Teste" && !Number.isNaN(Date.parse(note.at)))).toBe(true);

    // Audit rows name the action, never the note.
    const audits = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.entity_id, lead.id), eq(audit_log.action, "lead.note")));
    expect(audits).toHaveLength(3);
    expect(JSON.stringify(audits)).not.toContain("Primeira conversa");
  });

  it("sets, keeps and clears the next contact in the broker's time, recording each change", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Davi Retorno" });
    expect(await post(lead.id, { intent: "next_contact", next_contact_at: "2026-12-01T14:30" })).toEqual({
      status: 200,
      body: { ok: true, message: "Próximo contato definido!" },
    });
    const stored = async () => (await test.runtime.db.select({ next: leads.next_contact_at }).from(leads).where(eq(leads.id, lead.id)))[0].next;
    // 14:30 in Natal (UTC−3) is 17:30 UTC.
    expect((await stored())?.toISOString()).toBe("2026-12-01T17:30:00.000Z");
    // The same value again: no new timeline row.
    expect((await post(lead.id, { intent: "next_contact", next_contact_at: "2026-12-01T14:30" })).status).toBe(200);
    for (const bad of ["2026-02-30T10:00", "amanhã", "2026-12-01", "1850-01-01T10:00"]) {
      const result = await post(lead.id, { intent: "next_contact", next_contact_at: bad });
      expect(result.status).toBe(400);
      expect(result.body.message).toMatch(/Data/);
    }
    expect(await post(lead.id, { intent: "next_contact", next_contact_at: "" })).toEqual({
      status: 200,
      body: { ok: true, message: "Próximo contato removido." },
    });
    expect(await stored()).toBeNull();

    const page = await load(lead.id);
    expect(page.lead.next_contact_at).toBeNull();
    expect(ofKind(page, "next_contact").map(({ nextContactAt, actor }) => ({ nextContactAt, actor }))).toEqual([
      { nextContactAt: null, actor: "Usuário Teste" },
      { nextContactAt: "2026-12-01T17:30:00.000Z", actor: "Usuário Teste" },
    ]);
    const audits = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.entity_id, lead.id), eq(audit_log.action, "lead.update")));
    expect(audits.map((row) => row.details)).toEqual([{ fields: ["next_contact_at"] }, { fields: ["next_contact_at"] }]);
  });

  it("links leads with the same phone digits or e-mail (any case) as the same person, both ways", async () => {
    const first = await insertLead(test.runtime, { full_name: "Elisa Primeira", phone: "(84) 98765-4321", email: "Elisa@Teste.com" });
    const samePhone = await insertLead(test.runtime, { full_name: "Elisa Segunda", phone: "84987654321", email: null });
    const sameEmail = await insertLead(test.runtime, { full_name: "Elisa Terceira", phone: "(84) 91111-2222", email: "elisa@teste.COM" });
    await insertLead(test.runtime, { full_name: "Outra Pessoa", phone: "(84) 98765-4320", email: "elisa2@teste.com" });

    const page = await load(first.id);
    expect(page.samePerson.map(({ id, matches }) => ({ id, matches })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: samePhone.id, matches: ["phone"] },
        { id: sameEmail.id, matches: ["email"] },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect((await load(samePhone.id)).samePerson.map((lead) => lead.id)).toEqual([first.id]);
    expect((await load(sameEmail.id)).samePerson.map((lead) => lead.id)).toEqual([first.id]);
    // Shown together, never merged.
    expect(await test.runtime.db.select().from(leads).where(eq(leads.id, samePhone.id))).toHaveLength(1);
  });

  it("finds the same person through the phone-digits and e-mail indexes", async () => {
    const lead = await insertLead(test.runtime, { phone: "(84) 90000-1111", email: "plano@teste.com" });
    const query = samePersonQuery(test.runtime.db, lead).toSQL();
    const exec = async (statement: string, params: unknown[] = []) =>
      test.kind === "pglite"
        ? (await test.runtime.database.pglite!.query<Record<string, string>>(statement, params)).rows
        : (await test.runtime.database.pool!.query(statement, params)).rows;
    // With the few rows of a test, a Seq Scan is cheaper; forbid it to see whether an index CAN serve.
    await exec("set enable_seqscan = off");
    try {
      const plan = (await exec(`explain ${query.sql}`, query.params)).map((row) => Object.values(row)[0]).join("\n");
      expect(plan).toContain("leads_phone_digits_idx");
      expect(plan).toContain("leads_email_lower_idx");
      expect(plan).not.toMatch(/Seq Scan on leads/);
    } finally {
      await exec("reset enable_seqscan");
    }
  });

  it("shows visits and the e-mails sent about the lead in its timeline", async () => {
    const property = await insertProperty(test.runtime, { title: "Casa com piscina" });
    const lead = await insertLead(test.runtime, { full_name: "Fábio Visitas", property_id: property.id });
    await test.runtime.db.insert(visits).values({
      lead_id: lead.id,
      property_id: property.id,
      scheduled_at: new Date("2026-12-05T13:00:00Z"),
      notes: "Levar a chave",
      created_by: staff.id,
      created_by_name: "Usuário Teste",
    });
    await enqueueMail(test.runtime.db, { kind: "lead-alert", to: "corretor@teste.com", subject: "Novo lead: Fábio Visitas", text: "t", leadId: lead.id });
    await enqueueMail(test.runtime.db, { kind: "test", to: "outro@teste.com", subject: "Outro assunto", text: "t" });
    await deliverDueMail({ db: test.runtime.db, env: { ...test.runtime.env, SMTP_URL: smtp.url } });

    const page = await load(lead.id);
    expect(ofKind(page, "visit")).toMatchObject([
      { scheduledAt: "2026-12-05T13:00:00.000Z", status: "agendada", notes: "Levar a chave", actor: "Usuário Teste", property: { codigo: property.codigo, title: "Casa com piscina" } },
    ]);
    expect(ofKind(page, "email")).toMatchObject([{ subject: "Novo lead: Fábio Visitas", status: "sent", to: "corretor@teste.com" }]);
    expect(page.property).toMatchObject({ id: property.id, codigo: property.codigo, price: 500000, publicUrl: `http://localhost:3000/imoveis/${property.id}` });
    await test.runtime.db.delete(outbox);
  });

  it("answers 404 for an unknown or malformed id, in the loader and the actions", async () => {
    for (const id of ["6a1b2c3d-0000-4000-8000-000000000000", "123", "x'; drop table leads; --"]) {
      expect(answer(await run(() => leadLoader({ request: makeRequest(`/crm/leads/${id}`, { cookie: staff.cookie }), params: { id }, context } as never))).status).toBe(404);
      expect((await post(id, { intent: "note", body: "Nota" })).status).toBe(404);
      expect((await post(id, { intent: "status", status: "novo" })).status).toBe(404);
      expect((await post(id, { intent: "next_contact", next_contact_at: "" })).status).toBe(404);
    }
  });

  it("answers bad input with 400 and a Portuguese message, never 500", async () => {
    const lead = await insertLead(test.runtime);
    expect(await post(lead.id, { intent: "status", status: "arquivado" })).toEqual({ status: 400, body: { ok: false, message: "Selecione o status" } });
    expect((await post(lead.id, { intent: "bogus" })).status).toBe(400);
    expect((await post(lead.id, {})).status).toBe(400);
    const json = answer(
      await run(() =>
        leadAction({
          request: new Request(`http://localhost:3000/crm/leads/${lead.id}`, {
            method: "POST",
            headers: { "Content-Type": "application/json", Cookie: staff.cookie, Origin: "http://localhost:3000" },
            body: JSON.stringify({ intent: "note", body: ["lista"] }),
          }),
          params: { id: lead.id },
          context,
        } as never),
      ),
    );
    expect(json.status).toBe(400);
  });
});
