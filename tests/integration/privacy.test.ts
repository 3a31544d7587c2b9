import { parse } from "csv-parse/sync";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { app_meta, audit_log, lead_events, leads, outbox, settings, visits } from "~/db/schema";
import { changeLeadStatus } from "~/features/leads/crm.server";
import { addLeadNote } from "~/features/leads/lead-page.server";
import { proposal_offers, proposals } from "~/db/schema";
import { addOffer, createProposal } from "~/features/deals/proposals.server";
import { ANONYMIZED } from "~/features/privacy/markers";
import { runRetention, runRetentionIfDue } from "~/features/privacy/retention.server";
import { action as contactAction } from "~/routes/contact";
import { action as privacyAction, loader as privacyLoader } from "~/routes/crm-privacy";
import { loader as exportLoader } from "~/routes/crm-privacy-export";
import { createSignedInUser, insertLead, insertProperty, makeRequest, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The person's rights (LGPD art. 18) and the retention job, on a real database: the export holds
 * everything about the person; after 'Anonimizar' nothing of theirs is left in ANY text column of
 * ANY table, while the counts the reports read are the same; the daily job anonymises only the
 * leads past the period the admin set.
 */

const context = { cspNonce: "n", clientIp: "203.0.113.77" };
const PERSON = {
  name: "Joana Sigilosa Teixeira",
  phone: "(84) 98765-4321",
  digits: "84987654321",
  email: "Joana.Sigilo@Exemplo.com.br",
  message: "Procuro casa com quintal perto da escola do meu filho Pedrinho",
  note: "Joana disse que prefere ligação depois das 18h no 98765-4321",
  visitNote: "Portão azul, Joana leva a sogra Dona Cotinha",
  otherPhoneLeadName: "Joana S. Teixeira",
  otherPhone: "(84) 91234-0000",
  // Issue 24: the note given when a lead is lost is personal text too.
  lossNote: "Joana comprou com o cunhado Tio Valdemar",
};
const OTHER = { name: "Roberto Intocado Lima", phone: "(84) 95555-6666", email: "roberto.intocado@exemplo.com" };

function jsonRequest(path: string, body: unknown, cookie?: string): Request {
  const headers = new Headers({ "Content-Type": "application/json", Origin: "http://localhost:3000" });
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`http://localhost:3000${path}`, { method: "POST", headers, body: JSON.stringify(body) });
}

/** Every text-like column of every table and view (information_schema), searched for each needle. */
async function findEverywhere(test: TestRuntime, needles: string[]): Promise<string[]> {
  const columns = await queryRows<{ table_schema: string; table_name: string; column_name: string }>(
    test.runtime.db,
    sql`select table_schema, table_name, column_name from information_schema.columns
        where table_schema not in ('pg_catalog', 'information_schema') and table_schema not like 'pg_toast%'
          and data_type in ('text', 'character varying', 'character', 'jsonb', 'json', 'ARRAY', 'USER-DEFINED')`,
  );
  expect(columns.length).toBeGreaterThan(30);
  const hits: string[] = [];
  const patterns = needles.map((needle) => `%${needle.toLowerCase()}%`);
  for (const column of columns) {
    const target = sql.raw(`"${column.table_schema}"."${column.table_name}"`);
    const value = sql.raw(`lower("${column.column_name}"::text)`);
    const rows = await queryRows<{ n: number }>(
      test.runtime.db,
      sql`select count(*)::int as n from ${target} where ${value} like any (${sql.raw(`array[${patterns.map((p) => `'${p.replace(/'/g, "''")}'`).join(", ")}]`)})`,
    );
    if (Number(rows[0].n) > 0) hits.push(`${column.table_schema}.${column.table_name}.${column.column_name}`);
  }
  return hits;
}

/** What the reports count: leads by origin, status and month; visits and e-mails by status; timeline by kind. */
async function reportCounts(test: TestRuntime) {
  const db = test.runtime.db;
  return {
    leads: await queryRows(db, sql`select origin, status, interest_type, to_char(date_trunc('month', created_at at time zone 'America/Fortaleza'), 'YYYY-MM') as month, count(*)::int as n from leads group by 1, 2, 3, 4 order by 1, 2, 3, 4`),
    leadsByProperty: await queryRows(db, sql`select property_id, count(*)::int as n from leads group by 1 order by 1`),
    events: await queryRows(db, sql`select kind, from_status, to_status, count(*)::int as n from lead_events group by 1, 2, 3 order by 1, 2, 3`),
    visits: await queryRows(db, sql`select status, property_id, count(*)::int as n from visits group by 1, 2 order by 1, 2`),
    emails: await queryRows(db, sql`select kind, count(*)::int as n from outbox group by 1 order by 1`),
  };
}

describe.each(DATABASE_KINDS)("the person's rights (LGPD) on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;
  const ids = { contact: "", digitsOnly: "", sameEmail: "", other: "" };
  const actor = () => ({ id: admin.id, email: admin.email, name: "Admin Teste" });

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    admin = await createSignedInUser(test.runtime, "admin");
    const db = test.runtime.db;
    await db.insert(settings).values({ key: "notification_emails", value: ["corretor@teste.com.br"] });
    const property = await insertProperty(test.runtime, { title: "Casa com quintal no Tirol" });

    // 1. Through the site's contact form: the lead, its message and the new-lead alert e-mail.
    const sent = await contactAction({
      request: makeRequest("/contato", { form: { name: PERSON.name, email: PERSON.email, phone: PERSON.phone, message: PERSON.message } }),
      params: {},
      context,
    } as never);
    expect(sent).toMatchObject({ ok: true });
    const [contact] = await db.select().from(leads).where(eq(leads.full_name, PERSON.name));
    ids.contact = contact.id;
    // The alert went out already (it stays "sent"); the reminder below still waits.
    await db.update(outbox).set({ status: "sent", sent_at: new Date() }).where(eq(outbox.lead_id, contact.id));
    // 2. The same phone typed without formatting, another day; 3. the same e-mail (other case), another phone.
    ids.digitsOnly = (await insertLead(test.runtime, { full_name: PERSON.name, phone: PERSON.digits, origin: "whatsapp", status: "em_atendimento", property_id: property.id, visit_preferences: [{ day: "2026-03-07", period: "tarde" }, { day: "2026-03-09" }] })).id;
    ids.sameEmail = (await insertLead(test.runtime, { full_name: PERSON.otherPhoneLeadName, phone: PERSON.otherPhone, email: PERSON.email.toUpperCase(), origin: "indicacao", status: "convertido" })).id;
    // Someone else.
    ids.other = (await insertLead(test.runtime, { full_name: OTHER.name, phone: OTHER.phone, email: OTHER.email, notes: "Cliente antigo do Roberto" })).id;

    expect(await addLeadNote(db, actor(), ids.digitsOnly, PERSON.note)).toBe(true);
    // Issue 24: the same-e-mail lead was lost, with a reason and a note about the person.
    expect(await changeLeadStatus(db, actor(), ids.sameEmail, "perdido", { lost_reason: "Comprou com outro corretor", lost_note: PERSON.lossNote })).toBe(true);
    await addLeadNote(db, actor(), ids.other, "Roberto pediu retorno");
    await db.insert(visits).values([
      { lead_id: ids.digitsOnly, property_id: property.id, scheduled_at: new Date("2026-03-10T13:00:00Z"), status: "realizada", notes: PERSON.visitNote, created_by_name: "Admin Teste" },
      { lead_id: ids.other, property_id: property.id, scheduled_at: new Date("2026-03-11T13:00:00Z"), notes: "Roberto vem de carro" },
    ]);
    // Issue 24: a proposal of the person's, with a counter-offer: what they offered is theirs.
    const proposal = await createProposal(
      db,
      actor(),
      ids.digitsOnly,
      { property_codigo: property.codigo, amount: 54_000_000, cash: 14_000_000, financing: 40_000_000, fgts: null, exchange: null, guarantee: null, starts_on: null, conditions: "Mudança antes do aniversário do Pedrinho", valid_until: "2099-12-31" },
      "2026-01-01",
    );
    expect(proposal.ok).toBe(true);
    if (proposal.ok) await addOffer(db, actor(), ids.digitsOnly, { proposal_id: proposal.id, party: "proprietario", amount: 56_500_000, note: "Dona Cotinha aceita deixar os armários" });
    // An e-mail about the person still waiting in the queue: it must not go out after the erasure.
    await db.insert(outbox).values({ kind: "lead-alert", to_address: "corretor@teste.com.br", subject: `Lembrete: ${PERSON.name}`, text_body: `Ligar ${PERSON.phone}`, lead_id: ids.sameEmail });
  });
  afterAll(async () => {
    await test?.stop();
  });

  it("a search by phone, formatted any way or with +55, opens the person; an e-mail in any case too", async () => {
    for (const q of [PERSON.phone, PERSON.digits, "+55 84 98765-4321", PERSON.email.toLowerCase(), `  ${PERSON.email.toUpperCase()} `]) {
      const result = await settle(() => privacyAction({ request: makeRequest("/crm/privacidade", { form: { intent: "search", q }, cookie: admin.cookie }), params: {}, context } as never));
      expect(result).toBeInstanceOf(Response);
      const location = (result as Response).headers.get("Location")!;
      expect(location).toMatch(/^\/crm\/privacidade\?lead=[0-9a-f-]{36}$/);
      // The address carries a lead id, never the phone or e-mail.
      expect(location).not.toContain("98765");
      const lead = new URL(location, "http://x").searchParams.get("lead")!;
      expect([ids.contact, ids.digitsOnly, ids.sameEmail]).toContain(lead);
    }
    const missing = await settle(() => privacyAction({ request: makeRequest("/crm/privacidade", { form: { intent: "search", q: "(84) 90000-1111" }, cookie: admin.cookie }), params: {}, context } as never));
    expect(missing).toMatchObject({ init: { status: 404 }, data: { ok: false, message: "Nenhum lead ou alerta encontrado com esse telefone ou e-mail" } });
    for (const q of ["", "abc", "123", "a@b", "x".repeat(300)]) {
      const invalid = await settle(() => privacyAction({ request: makeRequest("/crm/privacidade", { form: { intent: "search", q }, cookie: admin.cookie }), params: {}, context } as never));
      expect(invalid).toMatchObject({ init: { status: 400 }, data: { ok: false } });
    }
  });

  it("the page shows the person's leads (phone digits and e-mail matches), notes, visits and e-mails — and not the other person", async () => {
    const page = (await privacyLoader({ request: makeRequest(`/crm/privacidade?lead=${ids.digitsOnly}`, { cookie: admin.cookie }), params: {}, context } as never)) as {
      person: { leads: { id: string }[]; events: { body: string | null }[]; visits: { notes: string | null }[]; emails: { subject: string }[] };
    };
    expect(page.person.leads.map((lead) => lead.id).sort()).toEqual([ids.contact, ids.digitsOnly, ids.sameEmail].sort());
    expect(page.person.events.map((event) => event.body)).toContain(PERSON.note);
    expect(page.person.visits.map((visit) => visit.notes)).toEqual([PERSON.visitNote]);
    expect(page.person.emails.length).toBe(2);
    expect(JSON.stringify(page)).not.toContain("Roberto");
  });

  it("'Exportar dados' gives everything as JSON and as one CSV (BOM, ';'), and records who and which leads, not the data", async () => {
    const json = (await exportLoader({ request: makeRequest(`/crm/privacidade/exportar?lead=${ids.contact}&formato=json`, { cookie: admin.cookie }), params: {}, context } as never)) as Response;
    expect(json.status).toBe(200);
    expect(json.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(json.headers.get("Content-Disposition")).toMatch(/^attachment; filename="dados-titular-[0-9a-f]{8}-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(json.headers.get("Cache-Control")).toBe("no-store");
    const exported = await json.json();
    // The person reads it: every key and value in Portuguese, dates as "dd/mm/aaaa, hh:mm" (Fortaleza).
    const DATE = /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/;
    expect(Object.keys(exported)).toEqual(["gerado_em", "fuso_horario", "descricao", "leads", "anotacoes_e_historico", "visitas", "emails", "perfis_de_busca", "imoveis_enviados", "alertas_avise_me", "propostas"]);
    // Issue 24: the proposal with its payment terms, conditions and offers.
    expect(exported.propostas).toHaveLength(1);
    expect(exported.propostas[0]).toMatchObject({ id_do_lead: ids.digitsOnly, tipo: "Compra", situacao: "Em negociação", valor: "R$\u00a0565.000", condicoes: "Mudança antes do aniversário do Pedrinho" });
    expect(exported.propostas[0].pagamento).toEqual(["À vista: R$\u00a0140.000", "Financiamento: R$\u00a0400.000"]);
    expect(exported.propostas[0].ofertas.map((offer: { quem: string; valor: string }) => [offer.quem, offer.valor])).toEqual([
      ["Cliente", "R$\u00a0540.000"],
      ["Proprietário", "R$\u00a0565.000"],
    ]);
    expect(exported.gerado_em).toMatch(DATE);
    expect(exported.leads.map((lead: { id: string }) => lead.id).sort()).toEqual([ids.contact, ids.digitsOnly, ids.sameEmail].sort());
    const contact = exported.leads.find((lead: { id: string }) => lead.id === ids.contact);
    expect(contact).toMatchObject({ nome_completo: PERSON.name, telefone: PERSON.phone, observacoes: PERSON.message, origem: "Site", situacao: "Novo", interesse: "Comprar" });
    expect(contact.email.toLowerCase()).toBe(PERSON.email.toLowerCase());
    expect(contact.criado_em).toMatch(DATE);
    expect(Object.keys(contact)).toEqual([
      "id", "nome_completo", "telefone", "email", "interesse", "tipo_de_imovel", "origem", "situacao", "observacoes", "criado_em", "proximo_contato", "imovel", "portal", "temperatura",
      "motivo_da_perda", "observacao_da_perda", "perdido_em", "dias_preferidos_para_visita",
    ]);
    // The booking form's preferred days (issue 25) go with the lead.
    expect(exported.leads.find((lead: { id: string }) => lead.id === ids.digitsOnly).dias_preferidos_para_visita).toEqual(["Sáb. 07/03/2026 — Tarde", "Seg. 09/03/2026"]);
    const sameEmail = exported.leads.find((lead: { id: string }) => lead.id === ids.sameEmail);
    expect(sameEmail).toMatchObject({ origem: "Indicação", situacao: "Perdido", motivo_da_perda: "Comprou com outro corretor", observacao_da_perda: PERSON.lossNote });
    expect(sameEmail.perdido_em).toMatch(DATE);
    const history = exported.anotacoes_e_historico as Record<string, string | null>[];
    expect(history.map((event) => event.texto)).toContain(PERSON.note);
    expect(new Set(history.map((event) => event.tipo))).toEqual(new Set(["Lead criado", "Anotação", "Mudança de situação"]));
    expect(history.find((event) => event.tipo === "Mudança de situação")).toMatchObject({
      situacao_anterior: "Convertido",
      situacao_nova: "Perdido",
      motivo_da_perda: "Comprou com outro corretor",
      texto: PERSON.lossNote,
    });
    for (const event of history) {
      expect(Object.keys(event)).toEqual(["id", "id_do_lead", "tipo", "data", "responsavel", "situacao_anterior", "situacao_nova", "texto", "proximo_contato", "motivo_da_perda"]);
      expect(event.data).toMatch(DATE);
    }
    expect(history.find((event) => event.tipo === "Lead criado")).toMatchObject({ situacao_nova: expect.stringMatching(/^(Novo|Em atendimento|Convertido)$/) });
    expect(exported.visitas).toHaveLength(1);
    expect(exported.visitas[0]).toMatchObject({ observacoes: PERSON.visitNote, situacao: "Realizada", data: "10/03/2026, 10:00", imovel: { titulo: "Casa com quintal no Tirol" }, agendada_por: "Admin Teste" });
    expect(exported.emails.map((mail: { assunto: string }) => mail.assunto).sort()).toEqual([`Lembrete: ${PERSON.name}`, `Novo lead: ${PERSON.name}`].sort());
    const alert = exported.emails.find((mail: { assunto: string }) => mail.assunto.startsWith("Novo"));
    expect(alert).toMatchObject({ tipo: "Aviso de novo lead", situacao: "enviado", destinatario: "corretor@teste.com.br" });
    expect(alert.texto).toContain(PERSON.message);
    expect(alert.enviado_em).toMatch(DATE);
    expect(exported.emails.find((mail: { assunto: string }) => mail.assunto.startsWith("Lembrete"))).toMatchObject({ situacao: "na fila", enviado_em: null });
    // Nothing in English is left for the person to read: no key, no code value.
    const keys = new Set<string>();
    const values = new Set<string>();
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object") {
        for (const [key, inner] of Object.entries(value)) {
          keys.add(key);
          walk(inner);
        }
      } else if (typeof value === "string") values.add(value);
    };
    walk(exported);
    for (const key of keys) expect(key).not.toMatch(/name|phone|status|kind|notes|created|sent|_at$|subject|body|^to_|title|code|interest|origin|type|property|actor|scheduled|reply/);
    for (const code of ["created", "status", "note", "sent", "pending", "failed", "lead-alert", "site", "novo", "comprar", "realizada", "indicacao"]) {
      expect(values.has(code), code).toBe(false);
    }
    expect(JSON.stringify(exported)).not.toContain(OTHER.name);

    const csvResponse = (await exportLoader({ request: makeRequest(`/crm/privacidade/exportar?lead=${ids.contact}&formato=csv`, { cookie: admin.cookie }), params: {}, context } as never)) as Response;
    expect(csvResponse.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await csvResponse.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).slice(1);
    const [header, ...rowsOf] = parse(csv, { delimiter: ";" }) as string[][];
    expect(header).toEqual(["tipo", "id", "id_do_lead", "data", "nome", "telefone", "email", "interesse", "tipo_de_imovel", "origem", "situacao", "imovel", "responsavel", "destinatario", "assunto", "texto"]);
    const kinds = rowsOf.map((cells) => cells[0]);
    expect(kinds.filter((k) => k === "Lead")).toHaveLength(3);
    expect(kinds).toContain("Anotação");
    expect(kinds).toContain("Lead criado");
    expect(kinds).toContain("Visita");
    expect(kinds.filter((k) => k === "E-mail")).toHaveLength(2);
    expect(kinds.filter((k) => k === "Proposta")).toHaveLength(1);
    for (const cells of rowsOf) expect(cells[3]).toMatch(DATE);
    expect(csv).toContain(`;${PERSON.name};${PERSON.phone};`);
    expect(csv).toContain("Indicação");
    expect(csv).toContain(PERSON.visitNote);
    expect(csv).toContain(`Motivo da perda: Comprou com outro corretor | Observação da perda: ${PERSON.lossNote}`);
    expect(rowsOf.find((cells) => cells[0] === "Visita")![10]).toBe("Realizada");
    expect(rowsOf.filter((cells) => cells[0] === "E-mail").map((cells) => cells[10]).sort()).toEqual(["enviado", "na fila"]);
    for (const code of ["created", "sent", "pending", "realizada", "novo", "site"]) expect(rowsOf.flat()).not.toContain(code);

    const bad = (await exportLoader({ request: makeRequest(`/crm/privacidade/exportar?lead=${ids.contact}&formato=xls`, { cookie: admin.cookie }), params: {}, context } as never)) as Response;
    expect(bad.status).toBe(400);
    const none = (await exportLoader({ request: makeRequest(`/crm/privacidade/exportar?lead=00000000-0000-4000-8000-000000000000`, { cookie: admin.cookie }), params: {}, context } as never)) as Response;
    expect(none.status).toBe(404);

    const audits = await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "privacy.export"));
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({ actor_id: admin.id, entity: "lead", entity_id: ids.contact });
    expect((audits[0].details as { leadIds: string[] }).leadIds.sort()).toEqual([ids.contact, ids.digitsOnly, ids.sameEmail].sort());
    expect((audits[0].details as { counts: unknown }).counts).toEqual({ leads: 3, events: 5, visits: 1, emails: 2 });
  });

  it("'Anonimizar' refuses a stale confirmation, then erases the person from every text column while the counts stay", async () => {
    const needles = [PERSON.name, "Joana", "Sigilosa", PERSON.phone, PERSON.digits, "98765-4321", "987654321", PERSON.email, PERSON.message, "Pedrinho", "Cotinha", PERSON.otherPhone, "Valdemar"];
    expect((await findEverywhere(test, needles)).length).toBeGreaterThan(3);
    const before = await reportCounts(test);
    const [otherBefore] = await test.runtime.db.select().from(leads).where(eq(leads.id, ids.other));
    const otherEventsBefore = await test.runtime.db.select().from(lead_events).where(eq(lead_events.lead_id, ids.other));
    const otherVisitsBefore = await test.runtime.db.select().from(visits).where(eq(visits.lead_id, ids.other));

    // The admin saw two of the three leads: refused, nothing changes.
    const stale = await settle(() =>
      privacyAction({ request: jsonRequest("/crm/privacidade", { intent: "anonymize", lead: ids.contact, leadIds: [ids.contact, ids.digitsOnly] }, admin.cookie), params: {}, context } as never),
    );
    expect(stale).toMatchObject({ init: { status: 409 } });
    expect((await test.runtime.db.select().from(leads).where(eq(leads.id, ids.contact)))[0].full_name).toBe(PERSON.name);

    const done = await privacyAction({
      request: jsonRequest("/crm/privacidade", { intent: "anonymize", lead: ids.contact, leadIds: [ids.sameEmail, ids.contact, ids.digitsOnly] }, admin.cookie),
      params: {},
      context,
    } as never);
    expect(done).toMatchObject({ ok: true, message: "Dados anonimizados em 3 leads" });

    expect(await findEverywhere(test, needles)).toEqual([]);
    expect(await reportCounts(test)).toEqual(before);

    const rows = await test.runtime.db.select().from(leads).where(inArray(leads.id, [ids.contact, ids.digitsOnly, ids.sameEmail]));
    for (const row of rows) expect(row).toMatchObject({ full_name: ANONYMIZED.name, phone: ANONYMIZED.phone, email: null, visit_preferences: null });
    expect(rows.find((row) => row.id === ids.contact)!.notes).toBe(ANONYMIZED.text);
    // Issue 24: the loss's note goes, its reason (a label of the settings' list) stays for the reports.
    expect(rows.find((row) => row.id === ids.sameEmail)).toMatchObject({ status: "perdido", lost_reason: "Comprou com outro corretor", lost_note: ANONYMIZED.text });
    const mails = await test.runtime.db.select().from(outbox).where(inArray(outbox.lead_id, [ids.contact, ids.sameEmail]));
    // Sent stays sent; the one still waiting will not go out (its content is gone).
    expect(mails.map((mail) => [mail.status, mail.last_error]).sort()).toEqual([
      ["failed", ANONYMIZED.cancelledMail],
      ["sent", null],
    ]);

    // Issue 24: the proposal stays (the listing's history) without what the person offered or wrote.
    const [proposal] = await test.runtime.db.select().from(proposals).where(eq(proposals.lead_id, ids.digitsOnly));
    expect(proposal).toMatchObject({ amount_cents: null, cash_cents: null, financing_cents: null, conditions: null });
    expect(proposal.anonymized_at).not.toBeNull();
    const offers = await test.runtime.db.select().from(proposal_offers).where(eq(proposal_offers.proposal_id, proposal.id));
    expect(offers.map((offer) => [offer.party, offer.amount_cents, offer.note])).toEqual([
      ["cliente", null, null],
      ["proprietario", null, null],
    ]);

    // The other person is untouched, row for row.
    expect((await test.runtime.db.select().from(leads).where(eq(leads.id, ids.other)))[0]).toEqual(otherBefore);
    expect(await test.runtime.db.select().from(lead_events).where(eq(lead_events.lead_id, ids.other))).toEqual(otherEventsBefore);
    expect(await test.runtime.db.select().from(visits).where(eq(visits.lead_id, ids.other))).toEqual(otherVisitsBefore);

    const [audit] = await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "privacy.anonymize"));
    expect(audit).toMatchObject({ actor_id: admin.id, actor_email: admin.email, entity: "lead", entity_id: ids.contact });
    expect(audit.details).toMatchObject({ counts: { leads: 3, events: 2, visits: 1, emails: 2 } });

    // A second request changes nothing and says so; the person is not found by search any more.
    const again = await settle(() =>
      privacyAction({ request: jsonRequest("/crm/privacidade", { intent: "anonymize", lead: ids.contact, leadIds: [ids.contact] }, admin.cookie), params: {}, context } as never),
    );
    expect(again).toMatchObject({ init: { status: 409 }, data: { message: "Este titular já foi anonimizado" } });
    const search = await settle(() => privacyAction({ request: makeRequest("/crm/privacidade", { form: { intent: "search", q: ANONYMIZED.phone }, cookie: admin.cookie }), params: {}, context } as never));
    expect(search).toMatchObject({ init: { status: 404 } });
  });
});

describe.each(DATABASE_KINDS)("the retention job on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;
  const NOW = new Date("2027-06-15T12:00:00Z");
  const monthsAgo = (months: number, days = 0) => {
    const date = new Date(NOW);
    date.setUTCMonth(date.getUTCMonth() - months);
    date.setUTCDate(date.getUTCDate() - days);
    return date;
  };
  const seeded = {} as Record<string, string>;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    admin = await createSignedInUser(test.runtime, "admin");
    const db = test.runtime.db;
    const lead = async (key: string, createdAt: Date) => {
      seeded[key] = (await insertLead(test.runtime, { full_name: `Pessoa ${key}`, phone: `(84) 9${String(Object.keys(seeded).length).padStart(4, "0")}-1111`, email: `${key}@retencao.com`, notes: `nota ${key}`, created_at: createdAt })).id;
    };
    await lead("stale", monthsAgo(25));
    await lead("oldWithRecentNote", monthsAgo(30));
    await lead("oldWithRecentVisit", monthsAgo(30));
    await lead("oldWithRecentStatus", monthsAgo(30));
    await lead("justInside", monthsAgo(23, 20));
    await lead("eightMonths", monthsAgo(8));
    await lead("fiveMonths", monthsAgo(5));
    await db.insert(lead_events).values({ lead_id: seeded.oldWithRecentNote, kind: "note", at: monthsAgo(3), body: "ainda conversando" });
    await db.insert(lead_events).values({ lead_id: seeded.oldWithRecentStatus, kind: "status", at: monthsAgo(1), from_status: "novo", to_status: "em_atendimento" });
    await db.insert(visits).values({ lead_id: seeded.oldWithRecentVisit, scheduled_at: monthsAgo(2), notes: "visita recente", created_at: monthsAgo(30), updated_at: monthsAgo(30) });
    // An old visit does not keep a lead: "stale" had one 25 months ago.
    await db.insert(visits).values({ lead_id: seeded.stale, scheduled_at: monthsAgo(25), notes: "visita antiga", created_at: monthsAgo(25), updated_at: monthsAgo(25) });
  });
  afterAll(async () => {
    await test?.stop();
  });

  const anonymised = async () =>
    (await test.runtime.db.select({ id: leads.id, phone: leads.phone }).from(leads))
      .filter((row) => row.phone === ANONYMIZED.phone)
      .map((row) => Object.entries(seeded).find(([, id]) => id === row.id)![0])
      .sort();

  it("anonymises only the leads without activity in the period (24 months by default)", async () => {
    const before = await reportCounts(test);
    const result = await runRetention(test.runtime.db, NOW);
    expect(result).toMatchObject({ leads: 1, visits: 1, months: 24 });
    expect(await anonymised()).toEqual(["stale"]);
    expect(await findEverywhere(test, ["Pessoa stale", "stale@retencao.com", "nota stale", "visita antiga"])).toEqual([]);
    expect(await reportCounts(test)).toEqual(before);
    const [audit] = await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "privacy.retention"));
    expect(audit).toMatchObject({ actor_id: null, entity: "lead", details: { leadIds: [seeded.stale], months: 24 } });
    // Run again: nothing more.
    expect((await runRetention(test.runtime.db, NOW)).leads).toBe(0);
  });

  it("follows the period the admin sets (6–120 months), and runs once a day", async () => {
    for (const months of ["5", "121", "abc", "12.5", ""]) {
      const refused = await settle(() => privacyAction({ request: makeRequest("/crm/privacidade", { form: { intent: "retention", months }, cookie: admin.cookie }), params: {}, context } as never));
      expect(refused).toMatchObject({ init: { status: 400 }, data: { message: "Informe um prazo entre 6 e 120 meses" } });
    }
    const saved = await privacyAction({ request: makeRequest("/crm/privacidade", { form: { intent: "retention", months: "6" }, cookie: admin.cookie }), params: {}, context } as never);
    expect(saved).toMatchObject({ ok: true });
    const [setting] = await test.runtime.db.select().from(settings).where(eq(settings.key, "retention_months"));
    expect(setting.value).toBe(6);
    const page = (await privacyLoader({ request: makeRequest("/crm/privacidade", { cookie: admin.cookie }), params: {}, context } as never)) as { retention: { months: number } };
    expect(page.retention.months).toBe(6);

    await test.runtime.db.delete(app_meta).where(eq(app_meta.key, "privacy_retention_last_run"));
    const first = await runRetentionIfDue(test.runtime.db, NOW);
    expect(first).toMatchObject({ months: 6 });
    expect(await anonymised()).toEqual(["eightMonths", "justInside", "stale"]);
    // The same day again: not due. A day later: due (and nothing new to do).
    expect(await runRetentionIfDue(test.runtime.db, new Date(NOW.getTime() + 60 * 60 * 1000))).toBeNull();
    expect(await runRetentionIfDue(test.runtime.db, new Date(NOW.getTime() + 24 * 60 * 60 * 1000))).toMatchObject({ leads: 0 });
    expect(await anonymised()).not.toContain("fiveMonths");
    const audits = await test.runtime.db.select({ action: audit_log.action, details: audit_log.details }).from(audit_log).where(eq(audit_log.action, "privacy.retention_months"));
    expect(audits).toEqual([{ action: "privacy.retention_months", details: { months: 6 } }]);
  });
});
