import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit_log, lead_events, leads, settings } from "~/db/schema";
import { BOARD_EXCERPT_LENGTH, listLeadBoard } from "~/features/leads/board.server";
import { loadLeadTimeline } from "~/features/leads/timeline.server";
import { loadLostReasons, saveLostReasons } from "~/features/settings/lost-reasons.server";
import { action as leadPageAction } from "~/routes/crm-lead";
import { action as leadsAction, loader as leadsLoader } from "~/routes/crm-leads";
import { createSignedInUser, insertLead, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The pipeline board on /crm/leads?vista=quadro: its columns (newest first, capped, counted,
 * narrowed by the search) and its move (intent=status), which changes the status once, leaves
 * exactly one timeline row naming who moved it (written by the database trigger, not twice by the
 * action) and one audit row without personal values.
 */

const context = { cspNonce: "n", clientIp: "192.0.2.31" };
type Answer = { ok: boolean; message: string };
const answer = (result: unknown): { status: number; body: Answer } =>
  result && typeof result === "object" && "init" in result
    ? { status: (result as { init: { status: number } }).init.status, body: (result as unknown as { data: Answer }).data }
    : { status: 200, body: result as Answer };

describe.each(DATABASE_KINDS)("lead board on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "corretor");
  });
  afterAll(async () => {
    await test.stop();
  });
  beforeEach(async () => {
    await test.runtime.db.delete(leads);
  });

  const move = (form: Record<string, string>, cookie = staff.cookie) =>
    leadsAction({ request: makeRequest("/crm/leads", { form: { intent: "status", ...form }, cookie }), params: {}, context } as never).then(answer);

  it("shows one column per status in order, each newest first with its total", async () => {
    const minute = (n: number) => new Date(Date.UTC(2026, 10, 20, 12, n));
    const a = await insertLead(test.runtime, { full_name: "Ana Novo", created_at: minute(1) });
    const b = await insertLead(test.runtime, { full_name: "Bia Novo", created_at: minute(2) });
    const c = await insertLead(test.runtime, { full_name: "Caio Convertido", status: "convertido", created_at: minute(3) });
    const columns = await listLeadBoard(test.runtime.db, { search: "" });
    expect(columns.map((column) => column.status)).toEqual(["novo", "em_atendimento", "convertido", "perdido"]);
    expect(columns.map((column) => column.total)).toEqual([2, 0, 1, 0]);
    expect(columns[0].leads.map((lead) => lead.id)).toEqual([b.id, a.id]);
    expect(columns[2].leads.map((lead) => lead.id)).toEqual([c.id]);
  });

  it("carries a card's property código and the start of the message, never the whole of a long one", async () => {
    const property = await insertProperty(test.runtime, { codigo: "QUADRO-7" });
    const long = `Quero visitar ${"o apartamento ".repeat(40)}no sábado.`;
    const lead = await insertLead(test.runtime, { property_id: property.id, notes: long, email: "nao-vai@teste.com" });
    const [novo] = await listLeadBoard(test.runtime.db, { search: "" });
    const card = novo.leads.find((row) => row.id === lead.id)!;
    expect(card.property_codigo).toBe("QUADRO-7");
    expect(card.excerpt!.startsWith("Quero visitar o apartamento")).toBe(true);
    expect(card.excerpt!.endsWith("…")).toBe(true);
    expect(card.excerpt!.length).toBeLessThanOrEqual(BOARD_EXCERPT_LENGTH + 1);
    expect(JSON.stringify(card)).not.toContain("nao-vai@teste.com");
  });

  it("shows the newest N of a big column and counts them all", async () => {
    const rows = Array.from({ length: 12 }, (_, index) => ({
      full_name: `Perdido ${String(index).padStart(2, "0")}`,
      phone: "(84) 99999-0000",
      status: "perdido" as const,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, index)),
    }));
    await test.runtime.db.insert(leads).values(rows);
    const columns = await listLeadBoard(test.runtime.db, { search: "" }, 5);
    const lost = columns[3];
    expect(lost.total).toBe(12);
    expect(lost.leads.map((lead) => lead.full_name)).toEqual(["Perdido 11", "Perdido 10", "Perdido 09", "Perdido 08", "Perdido 07"]);
  });

  it("follows the search box (name, accents ignored, or phone digits) in every column and total", async () => {
    await insertLead(test.runtime, { full_name: "José Antônio", phone: "(84) 98765-4321" });
    await insertLead(test.runtime, { full_name: "Jose Carlos", status: "perdido" });
    await insertLead(test.runtime, { full_name: "Maria", phone: "(84) 91111-2222", status: "convertido" });
    const byName = await listLeadBoard(test.runtime.db, { search: "jose" });
    expect(byName.map((column) => column.total)).toEqual([1, 0, 0, 1]);
    expect(byName.flatMap((column) => column.leads.map((lead) => lead.full_name)).sort()).toEqual(["Jose Carlos", "José Antônio"]);
    const byPhone = await listLeadBoard(test.runtime.db, { search: "91111" });
    expect(byPhone.map((column) => column.total)).toEqual([0, 0, 1, 0]);
  });

  it("the page loader hands the board for ?vista=quadro and the table otherwise", async () => {
    await insertLead(test.runtime, { full_name: "Quadro Loader" });
    const board = await leadsLoader({ request: makeRequest("/crm/leads?vista=quadro", { cookie: staff.cookie }), params: {}, context } as never);
    expect(board.view).toBe("quadro");
    expect(board.board?.[0].leads.map((lead) => lead.full_name)).toEqual(["Quadro Loader"]);
    expect(board.total).toBe(1);
    const table = await leadsLoader({ request: makeRequest("/crm/leads", { cookie: staff.cookie }), params: {}, context } as never);
    expect(table.view).toBe("tabela");
    expect(table.board).toBeNull();
    expect(table.leads.map((lead) => lead.full_name)).toEqual(["Quadro Loader"]);
  });

  it("a move changes the status and leaves one timeline row naming the mover, and one audit row without values", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Movida Pelo Quadro" });
    const result = await move({ id: lead.id, status: "em_atendimento" });
    expect(result).toEqual({ status: 200, body: { ok: true, message: "Lead movido para Em atendimento" } });
    const [row] = await test.runtime.db.select({ status: leads.status }).from(leads).where(eq(leads.id, lead.id));
    expect(row.status).toBe("em_atendimento");

    const events = await test.runtime.db
      .select()
      .from(lead_events)
      .where(and(eq(lead_events.lead_id, lead.id), eq(lead_events.kind, "status")));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ from_status: "novo", to_status: "em_atendimento", actor_id: staff.id });

    const audits = await test.runtime.db.select().from(audit_log).where(eq(audit_log.entity_id, lead.id));
    expect(audits.map((audit) => [audit.action, audit.details])).toEqual([["lead.update", { fields: ["status"] }]]);
    expect(JSON.stringify(audits)).not.toContain("Movida");
  });

  it("moving a card into the column it is in changes nothing and records nothing", async () => {
    const lead = await insertLead(test.runtime, { status: "convertido" });
    expect((await move({ id: lead.id, status: "convertido" })).status).toBe(200);
    const events = await test.runtime.db
      .select()
      .from(lead_events)
      .where(and(eq(lead_events.lead_id, lead.id), eq(lead_events.kind, "status")));
    expect(events).toHaveLength(0);
    expect(await test.runtime.db.select().from(audit_log).where(eq(audit_log.entity_id, lead.id))).toHaveLength(0);
  });

  it("refuses an unknown status with 400 and a Portuguese message, and an unknown lead with 404", async () => {
    const lead = await insertLead(test.runtime);
    expect(await move({ id: lead.id, status: "ganho" })).toEqual({ status: 400, body: { ok: false, message: "Status inválido" } });
    expect(await move({ id: lead.id })).toEqual({ status: 400, body: { ok: false, message: "Status inválido" } });
    expect((await move({ status: "perdido", lost_reason: "Preço" })).status).toBe(400);
    expect((await move({ id: lead.id, status: "perdido", lost_reason: "Preço", extra: "x".repeat(10) })).status).toBe(200);
    const missing = await move({ id: "00000000-0000-4000-8000-000000000000", status: "perdido", lost_reason: "Preço" });
    expect(missing).toEqual({ status: 404, body: { ok: false, message: "Lead não encontrado. Ele pode ter sido excluído." } });
    expect((await move({ id: "não-é-um-id", status: "perdido", lost_reason: "Preço" })).status).toBe(404);
    expect((await move({ id: "x".repeat(5000), status: "perdido", lost_reason: "Preço" })).status).toBe(400);
  });

  it("accepts the move as JSON, as the board sends it", async () => {
    const lead = await insertLead(test.runtime);
    const request = new Request("http://localhost:3000/crm/leads", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: staff.cookie, Origin: "http://localhost:3000" },
      body: JSON.stringify({ intent: "status", id: lead.id, status: "perdido", lost_reason: "Sem resposta", lost_note: "Três tentativas" }),
    });
    expect(answer(await leadsAction({ request, params: {}, context } as never)).status).toBe(200);
    const [row] = await test.runtime.db.select({ status: leads.status, reason: leads.lost_reason }).from(leads).where(eq(leads.id, lead.id));
    expect(row).toEqual({ status: "perdido", reason: "Sem resposta" });
  });

  describe("lost reasons (issue 24)", () => {
    const stored = async (id: string) =>
      (await test.runtime.db.select({ status: leads.status, reason: leads.lost_reason, note: leads.lost_note, at: leads.lost_at }).from(leads).where(eq(leads.id, id)))[0];
    const statusEvents = (id: string) =>
      test.runtime.db.select().from(lead_events).where(and(eq(lead_events.lead_id, id), eq(lead_events.kind, "status"))).orderBy(lead_events.at);

    beforeEach(async () => {
      await test.runtime.db.delete(settings).where(eq(settings.key, "lost_reasons"));
    });

    it("refuses 'perdido' without a reason, or with one not in the list, with 400 and changes nothing", async () => {
      const lead = await insertLead(test.runtime, { status: "em_atendimento" });
      expect(await move({ id: lead.id, status: "perdido" })).toEqual({ status: 400, body: { ok: false, message: "Selecione o motivo da perda" } });
      expect(await move({ id: lead.id, status: "perdido", lost_reason: "   " })).toEqual({ status: 400, body: { ok: false, message: "Selecione o motivo da perda" } });
      expect(await move({ id: lead.id, status: "perdido", lost_reason: "Era feio" })).toEqual({
        status: 400,
        body: { ok: false, message: "Motivo da perda desconhecido. Recarregue a página e escolha um motivo da lista." },
      });
      expect((await move({ id: lead.id, status: "perdido", lost_reason: "Preço", lost_note: "x".repeat(501) })).body.message).toBe(
        "Observação da perda muito longa (máximo de 500 caracteres)",
      );
      expect(await stored(lead.id)).toMatchObject({ status: "em_atendimento", reason: null, note: null, at: null });
      expect(await statusEvents(lead.id)).toHaveLength(0);
      expect(await test.runtime.db.select().from(audit_log).where(eq(audit_log.entity_id, lead.id))).toHaveLength(0);
    });

    it("a loss keeps the list's label, the note and when; the timeline row carries both; the audit names fields only", async () => {
      const lead = await insertLead(test.runtime, { status: "em_atendimento" });
      // The list's spelling wins over the one sent (case, accents).
      expect((await move({ id: lead.id, status: "perdido", lost_reason: "preco", lost_note: "Achou o condomínio caro" })).status).toBe(200);
      const row = await stored(lead.id);
      expect(row).toMatchObject({ status: "perdido", reason: "Preço", note: "Achou o condomínio caro" });
      expect(row.at).toBeInstanceOf(Date);
      const [event] = await statusEvents(lead.id);
      expect(event).toMatchObject({ from_status: "em_atendimento", to_status: "perdido", lost_reason: "Preço", body: "Achou o condomínio caro", actor_id: staff.id });
      const audits = await test.runtime.db.select().from(audit_log).where(eq(audit_log.entity_id, lead.id));
      expect(audits.map((audit) => audit.details)).toEqual([{ fields: ["status", "lost_reason", "lost_note"] }]);
      expect(JSON.stringify(audits)).not.toContain("condomínio");
      const columns = await listLeadBoard(test.runtime.db, { search: "" });
      expect(columns[3].leads.map((card) => card.lost_reason)).toEqual(["Preço"]);
      const timeline = await loadLeadTimeline(test.runtime.db, lead.id);
      expect(timeline.find((item) => item.kind === "status")).toMatchObject({ lostReason: "Preço", lostNote: "Achou o condomínio caro" });
    });

    it("leaving 'perdido' clears the reason, the note and the date; the timeline still says why it had been lost", async () => {
      const lead = await insertLead(test.runtime);
      await move({ id: lead.id, status: "perdido", lost_reason: "Desistiu", lost_note: "Vai esperar" });
      expect((await move({ id: lead.id, status: "em_atendimento" })).status).toBe(200);
      expect(await stored(lead.id)).toEqual({ status: "em_atendimento", reason: null, note: null, at: null });
      const events = await statusEvents(lead.id);
      expect(events.map((event) => [event.to_status, event.lost_reason])).toEqual([
        ["perdido", "Desistiu"],
        ["em_atendimento", null],
      ]);
    });

    it("the database keeps the columns consistent for any writer: SQL's 'perdido' is dated, another status clears them", async () => {
      const lead = await insertLead(test.runtime);
      await test.runtime.db.execute(sql`update leads set status = 'perdido' where id = ${lead.id}`);
      const lost = await stored(lead.id);
      expect(lost).toMatchObject({ status: "perdido", reason: null });
      expect(lost.at).toBeInstanceOf(Date);
      await test.runtime.db.execute(sql`update leads set lost_reason = 'Preço', lost_note = 'nota' where id = ${lead.id}`);
      expect((await stored(lead.id)).at!.getTime()).toBe(lost.at!.getTime());
      await test.runtime.db.execute(sql`update leads set status = 'novo' where id = ${lead.id}`);
      expect(await stored(lead.id)).toEqual({ status: "novo", reason: null, note: null, at: null });
      await test.runtime.db.execute(sql`update leads set lost_reason = 'Preço' where id = ${lead.id}`);
      expect((await stored(lead.id)).reason).toBeNull();
    });

    it("a reason removed from the list stays on the leads lost for it, and no new lead can take it", async () => {
      const lead = await insertLead(test.runtime);
      await move({ id: lead.id, status: "perdido", lost_reason: "Localização" });
      const saved = await saveLostReasons(test.runtime.db, null, ["Preço", "Sem retorno"]);
      expect(saved.ok).toBe(true);
      expect(await loadLostReasons(test.runtime.db)).toEqual(["Preço", "Sem retorno"]);
      // The lead page saves its reason again (a new note): the old label is still accepted there.
      const page = await leadPageAction({
        request: makeRequest(`/crm/leads/${lead.id}`, { form: { intent: "status", status: "perdido", lost_reason: "Localização", lost_note: "Longe da praia" }, cookie: staff.cookie }),
        params: { id: lead.id },
        context,
      } as never).then(answer);
      expect(page.status).toBe(200);
      expect(await stored(lead.id)).toMatchObject({ reason: "Localização", note: "Longe da praia" });
      const other = await insertLead(test.runtime);
      expect((await move({ id: other.id, status: "perdido", lost_reason: "Localização" })).status).toBe(400);
      expect((await move({ id: other.id, status: "perdido", lost_reason: "Sem retorno" })).status).toBe(200);
    });

    it("the table's dialog asks too: create or update to 'perdido' needs a reason; the loader hands the list", async () => {
      const values = { full_name: "Lead Da Tabela", phone: "(84) 99999-1234", email: "", interest_type: "comprar", property_type: "", origin: "site", status: "perdido", notes: "" };
      const post = (body: Record<string, unknown>) =>
        leadsAction({
          request: new Request("http://localhost:3000/crm/leads", {
            method: "POST",
            headers: { "Content-Type": "application/json", Cookie: staff.cookie, Origin: "http://localhost:3000" },
            body: JSON.stringify(body),
          }),
          params: {},
          context,
        } as never).then(answer);
      expect(await post({ intent: "create", values })).toEqual({ status: 400, body: { ok: false, message: "Selecione o motivo da perda" } });
      expect(await test.runtime.db.select().from(leads)).toHaveLength(0);
      expect((await post({ intent: "create", values: { ...values, lost_reason: "Financiamento negado" } })).status).toBe(200);
      const [created] = await test.runtime.db.select().from(leads);
      expect(created).toMatchObject({ status: "perdido", lost_reason: "Financiamento negado" });
      const [createdEvent] = await test.runtime.db.select().from(lead_events).where(eq(lead_events.lead_id, created.id));
      expect(createdEvent).toMatchObject({ kind: "created", to_status: "perdido", lost_reason: "Financiamento negado" });

      // Editing the lost lead keeps its reason when the dialog sends it back; a blank one is refused.
      expect((await post({ intent: "update", id: created.id, values: { ...values, lost_reason: "" } })).status).toBe(400);
      expect((await post({ intent: "update", id: created.id, values: { ...values, full_name: "Lead Renomeado", lost_reason: "Financiamento negado" } })).status).toBe(200);
      expect(await stored(created.id)).toMatchObject({ status: "perdido", reason: "Financiamento negado" });
      expect((await post({ intent: "update", id: created.id, values: { ...values, status: "novo", lost_reason: "Financiamento negado" } })).status).toBe(200);
      expect(await stored(created.id)).toEqual({ status: "novo", reason: null, note: null, at: null });

      const loaded = await leadsLoader({ request: makeRequest("/crm/leads?vista=quadro", { cookie: staff.cookie }), params: {}, context } as never);
      expect(loaded.lostReasons).toEqual(["Preço", "Localização", "Comprou com outro corretor", "Desistiu", "Financiamento negado", "Sem resposta", "Outro"]);
    });
  });
});
