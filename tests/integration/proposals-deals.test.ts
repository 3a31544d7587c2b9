import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, deal_splits, deals, lead_events, leads, owners, properties, property_captacao, property_owners, proposal_offers, proposals, settings } from "~/db/schema";
import { expireProposals } from "~/features/deals/proposals.server";
import { brokerDay } from "~/lib/format";
import { housekeepingRound } from "~/runtime.server";
import { parsePeriod } from "~/features/reports/period";
import { loadReport } from "~/features/reports/reports.server";
import { reportTables } from "~/features/reports/tables";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { action as leadAction, loader as leadLoader } from "~/routes/crm-lead";
import { loader as pdfLoader } from "~/routes/crm-proposal-pdf";
import { action as negotiationsAction, loader as negotiationsLoader } from "~/routes/crm-property-negotiations";
import { action as settingsAction } from "~/routes/crm-settings";
import { loader as listLoader } from "~/routes/properties";
import { createSignedInUser, insertLead, insertProperty, makeRequest, settle, type TestUser } from "../helpers/factories";
import { pdfText } from "../helpers/pdf-text";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Proposals and deals (issue 24, decision 026) through the lead page's loader and action with
 * real requests on a real database: a proposal, a counter-offer, acceptance, a deal with a split
 * commission that sends the listing out of the site's list and makes the lead convertido in the
 * same transaction, the undo, the defaults of the commission, the expiry round, the PDF, the
 * dashboard, and who may see commissions.
 */

const context = { cspNonce: "n", clientIp: "192.0.2.61" };
type Json = Record<string, unknown>;
const dataOf = (result: unknown): Json => (result && typeof result === "object" && "data" in result && "init" in result ? (result as { data: Json }).data : (result as Json));
const statusOf = (result: unknown): number =>
  result instanceof Response ? result.status : result && typeof result === "object" && "init" in result ? ((result as { init: { status?: number } }).init.status ?? 200) : 200;

const plusDays = (days: number) => {
  const [y, m, d] = brokerDay(new Date()).split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days, 12)).toISOString().slice(0, 10);
};

type LeadPage = {
  negotiations: {
    seeCommissions: boolean;
    proposals: {
      id: string;
      status: string;
      amountCents: number;
      offers: { party: string; amountCents: number }[];
      deals: { id: string; finalValueCents: number; undoneAt: string | null; commission: null | { percent: number; cents: number; brokerCents: number; splits: { name: string; cents: number }[] } }[];
      defaultCommissionPercent: number | null;
    }[];
  };
  timeline: { kind: string; title?: string }[];
};

describe.each(DATABASE_KINDS)("proposals and deals on %s", (kind) => {
  let test: TestRuntime;
  let corretor: TestUser;
  let admin: TestUser;
  const db = () => test.runtime.db;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    corretor = await createSignedInUser(test.runtime, "corretor");
    admin = await createSignedInUser(test.runtime, "admin");
  });
  afterAll(async () => {
    await test?.stop();
  });

  const post = (leadId: string, form: Record<string, string>, user: TestUser = corretor) =>
    settle(() => leadAction({ request: makeRequest(`/crm/leads/${leadId}`, { form, cookie: user.cookie }), params: { id: leadId }, context } as never));
  const page = async (leadId: string, user: TestUser = corretor) =>
    (await leadLoader({ request: makeRequest(`/crm/leads/${leadId}`, { cookie: user.cookie }), params: { id: leadId }, context } as never)) as unknown as LeadPage;
  const listed = async () => {
    const list = (await listLoader({ request: makeRequest("/imoveis"), params: {}, context } as never)) as { properties: { id: string }[] };
    return list.properties.map((item) => item.id);
  };

  it("drives a sale: proposal, counter-offer, acceptance, deal with a split — listing sold and lead convertido together", async () => {
    const property = await insertProperty(test.runtime, { price: 590000, title: "Apartamento de teste em Petrópolis" });
    const lead = await insertLead(test.runtime, { full_name: "Carla Compradora", status: "em_atendimento", property_id: property.id });
    expect(await listed()).toContain(property.id);

    // Bad values are a 400 with a Portuguese message; nothing is stored.
    for (const [form, message] of [
      [{ amount: "abc", valid_until: plusDays(10) }, "Informe um valor válido (ex.: 540.000,00)"],
      [{ amount: "540.000,00", valid_until: "" }, "Informe a validade da proposta"],
      [{ amount: "540.000,00", valid_until: "2026-02-30" }, "Data inválida"],
      [{ amount: "2.000.000.000,00", valid_until: plusDays(10) }, "Valor fora do limite (até R$ 1 bilhão)"],
      [{ amount: "540.000,00", valid_until: plusDays(-1) }, "A validade não pode ser anterior a hoje"],
      [{ amount: "540.000,00", valid_until: plusDays(10), property_codigo: "NAO-EXISTE" }, "Imóvel não encontrado: confira o código"],
    ] as const) {
      const result = await post(lead.id, { intent: "proposal_create", property_codigo: property.codigo, ...form });
      expect(statusOf(result)).toBe(400);
      expect(dataOf(result)).toEqual({ ok: false, message });
    }
    expect(await db().select().from(proposals).where(eq(proposals.lead_id, lead.id))).toHaveLength(0);

    const created = await post(lead.id, {
      intent: "proposal_create",
      property_codigo: property.codigo.toLowerCase(),
      amount: "540.000,00",
      cash: "140.000,00",
      financing: "350.000,00",
      fgts: "50.000,00",
      conditions: "Chaves em 30 dias",
      valid_until: plusDays(10),
    });
    expect(created).toEqual({ ok: true, message: "Proposta registrada!" });
    const [proposal] = await db().select().from(proposals).where(eq(proposals.lead_id, lead.id));
    expect(proposal).toMatchObject({ kind: "venda", status: "em_negociacao", amount_cents: 54_000_000, cash_cents: 14_000_000, financing_cents: 35_000_000, fgts_cents: 5_000_000, exchange_cents: null });

    expect(await post(lead.id, { intent: "proposal_offer", proposal_id: proposal.id, party: "proprietario", amount: "565.000,00", note: "Deixa os armários" })).toMatchObject({ ok: true });
    expect(statusOf(await post(lead.id, { intent: "proposal_offer", proposal_id: proposal.id, party: "vizinho", amount: "1,00" }))).toBe(400);
    expect(await post(lead.id, { intent: "proposal_offer", proposal_id: proposal.id, party: "cliente", amount: "560.000,00" })).toMatchObject({ ok: true });
    let view = (await page(lead.id)).negotiations.proposals[0];
    expect(view.amountCents).toBe(56_000_000);
    expect(view.offers.map((offer) => [offer.party, offer.amountCents])).toEqual([
      ["cliente", 54_000_000],
      ["proprietario", 56_500_000],
      ["cliente", 56_000_000],
    ]);

    // Not accepted yet: no deal. Then accepted; an accepted proposal takes no more offers.
    expect(statusOf(await post(lead.id, { intent: "deal_create", proposal_id: proposal.id, final_value: "560.000,00", closed_on: brokerDay(new Date()) }))).toBe(409);
    expect(await post(lead.id, { intent: "proposal_accept", proposal_id: proposal.id })).toMatchObject({ ok: true });
    expect(statusOf(await post(lead.id, { intent: "proposal_offer", proposal_id: proposal.id, party: "cliente", amount: "1,00" }))).toBe(409);
    // A corretor (commissions hidden by default) sends no commission or split: 403, nothing closes.
    const forbidden = await post(lead.id, { intent: "deal_create", proposal_id: proposal.id, final_value: "560.000,00", closed_on: brokerDay(new Date()), "split.0.name": "Paulo", "split.0.percent": "50" });
    expect(statusOf(forbidden)).toBe(403);
    expect(await db().select().from(deals)).toHaveLength(0);
    expect((await page(lead.id)).negotiations.proposals[0].defaultCommissionPercent).toBeNull();
    expect((await page(lead.id, admin)).negotiations.proposals[0].defaultCommissionPercent).toBe(6);

    // Splits over 100 % are refused.
    const over = await post(lead.id, { intent: "deal_create", proposal_id: proposal.id, final_value: "560.000,00", closed_on: brokerDay(new Date()), "split.0.name": "Paulo Parceiro", "split.0.percent": "60", "split.1.name": "Ana Parceira", "split.1.percent": "50" }, admin);
    expect(dataOf(over)).toEqual({ ok: false, message: "A soma dos parceiros passa de 100% da comissão" });

    const closed = await post(
      lead.id,
      { intent: "deal_create", proposal_id: proposal.id, final_value: "560.000,00", closed_on: brokerDay(new Date()), commission_percent: "6", "split.0.name": "Paulo Parceiro", "split.0.creci": "CRECI-RN 1234", "split.0.percent": "50" },
      admin,
    );
    expect(closed).toEqual({ ok: true, message: "Negócio fechado! Imóvel e lead atualizados." });
    const [deal] = await db().select().from(deals).where(eq(deals.proposal_id, proposal.id));
    expect(deal).toMatchObject({ final_value_cents: 56_000_000, commission_percent: 6, commission_cents: 3_360_000, commission_status: "a_receber", undone_at: null });
    expect(await db().select({ name: deal_splits.name, percent: deal_splits.percent }).from(deal_splits).where(eq(deal_splits.deal_id, deal.id))).toEqual([{ name: "Paulo Parceiro", percent: 50 }]);
    // The same transaction: the listing left the site's list and the lead is convertido, written by the deal's author.
    expect((await db().select().from(properties).where(eq(properties.id, property.id)))[0].status).toBe("vendido");
    expect(await listed()).not.toContain(property.id);
    expect((await db().select().from(leads).where(eq(leads.id, lead.id)))[0].status).toBe("convertido");
    const statusEvent = (await db().select().from(lead_events).where(and(eq(lead_events.lead_id, lead.id), eq(lead_events.kind, "status"))))[0];
    expect(statusEvent).toMatchObject({ from_status: "em_atendimento", to_status: "convertido", actor_id: admin.id });
    const actions = (await db().select({ action: audit_log.action }).from(audit_log)).map((row) => row.action);
    for (const action of ["proposal.create", "proposal.offer", "proposal.accept", "deal.create"]) expect(actions).toContain(action);

    // The admin sees the commission and its split; a corretor sees neither, until the settings say so.
    view = (await page(lead.id, admin)).negotiations.proposals[0];
    expect(view.deals[0].commission).toMatchObject({ percent: 6, cents: 3_360_000, brokerCents: 1_680_000, splits: [{ name: "Paulo Parceiro", cents: 1_680_000 }] });
    const corretorPage = await page(lead.id);
    expect(corretorPage.negotiations.seeCommissions).toBe(false);
    expect(corretorPage.negotiations.proposals[0].deals[0].commission).toBeNull();
    expect(JSON.stringify(corretorPage)).not.toContain("Paulo Parceiro");
    expect(statusOf(await post(lead.id, { intent: "deal_commission", deal_id: deal.id, commission_status: "recebida" }))).toBe(403);
    expect(await settingsAction({ request: makeRequest("/crm/configuracoes", { form: { intent: "deals", salePercent: "6", rentFirstRentPercent: "100", corretorSeesCommissions: "on" }, cookie: admin.cookie }), params: {}, context } as never)).toMatchObject({ data: { ok: true } });
    expect((await page(lead.id)).negotiations.proposals[0].deals[0].commission).toMatchObject({ cents: 3_360_000 });
    expect(await post(lead.id, { intent: "deal_commission", deal_id: deal.id, commission_status: "recebida", commission_paid_on: "" })).toMatchObject({ ok: true });
    expect((await db().select().from(deals).where(eq(deals.id, deal.id)))[0]).toMatchObject({ commission_status: "recebida", commission_paid_on: brokerDay(new Date()) });
    await db().delete(settings).where(eq(settings.key, "deal_settings"));

    // The timeline tells the story.
    const titles = (await page(lead.id)).timeline.filter((item) => item.kind === "negotiation").map((item) => item.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        `Proposta para ${property.codigo}: R$\u00a0540.000`,
        `Contraproposta do proprietário (${property.codigo}): R$\u00a0565.000`,
        `Proposta aceita (${property.codigo})`,
        `Negócio fechado (${property.codigo}): R$\u00a0560.000`,
      ]),
    );

    // The listing's 'Negociações' shows it with its lead.
    const listingPage = (await negotiationsLoader({ request: makeRequest(`/crm/imoveis/${property.id}/negociacoes`, { cookie: corretor.cookie }), params: { id: property.id }, context } as never)) as {
      proposals: { lead: { full_name: string }; status: string }[];
    };
    expect(listingPage.proposals.map((item) => [item.lead.full_name, item.status])).toEqual([["Carla Compradora", "aceita"]]);

    // A second deal for the same listing is refused; undoing puts listing and lead back, and is recorded.
    expect(statusOf(await post(lead.id, { intent: "deal_create", proposal_id: proposal.id, final_value: "560.000,00", closed_on: brokerDay(new Date()) }))).toBe(409);
    expect(await post(lead.id, { intent: "deal_undo", deal_id: deal.id, reason: "Financiamento negado" })).toMatchObject({ ok: true });
    expect((await db().select().from(properties).where(eq(properties.id, property.id)))[0].status).toBe("disponivel");
    expect(await listed()).toContain(property.id);
    expect((await db().select().from(leads).where(eq(leads.id, lead.id)))[0].status).toBe("em_atendimento");
    expect((await db().select().from(deals).where(eq(deals.id, deal.id)))[0]).toMatchObject({ undo_reason: "Financiamento negado" });
    expect((await db().select().from(deals).where(eq(deals.id, deal.id)))[0].undone_at).not.toBeNull();
    expect((await db().select({ action: audit_log.action }).from(audit_log).where(eq(audit_log.action, "deal.undo")))).toHaveLength(1);
    expect(statusOf(await post(lead.id, { intent: "deal_undo", deal_id: deal.id }))).toBe(404);
  });

  it("takes the sale commission from the captação, and a rental's from the first rent", async () => {
    const sale = await insertProperty(test.runtime, { price: 400000 });
    const [owner] = await db().insert(owners).values({ full_name: "Otávio Proprietário" }).returning();
    await db().insert(property_owners).values({ property_id: sale.id, owner_id: owner.id });
    await db().insert(property_captacao).values({ property_id: sale.id, authorization_type: "exclusiva", commission: 5 });
    const buyer = await insertLead(test.runtime, { full_name: "Bruno Comprador" });
    await post(buyer.id, { intent: "proposal_create", property_codigo: sale.codigo, amount: "400.000,00", valid_until: plusDays(5) });
    const [saleProposal] = await db().select().from(proposals).where(eq(proposals.lead_id, buyer.id));
    await post(buyer.id, { intent: "proposal_accept", proposal_id: saleProposal.id });
    expect(await post(buyer.id, { intent: "deal_create", proposal_id: saleProposal.id, final_value: "400.000,00", closed_on: brokerDay(new Date()) })).toMatchObject({ ok: true });
    expect((await db().select().from(deals).where(eq(deals.proposal_id, saleProposal.id)))[0]).toMatchObject({ commission_percent: 5, commission_cents: 2_000_000 });

    const rental = await insertProperty(test.runtime, { purpose: "aluguel", price: 3450.5 });
    const tenant = await insertLead(test.runtime, { full_name: "Tânia Inquilina", interest_type: "alugar" });
    expect(
      await post(tenant.id, { intent: "proposal_create", property_codigo: rental.codigo, amount: "3.300,00", guarantee: "seguro_fianca", starts_on: plusDays(20), cash: "999,00", valid_until: plusDays(5) }),
    ).toMatchObject({ ok: true });
    const [rentProposal] = await db().select().from(proposals).where(eq(proposals.lead_id, tenant.id));
    // A rental carries the rent, the guarantee and the start; never payment terms.
    expect(rentProposal).toMatchObject({ kind: "aluguel", amount_cents: 330_000, guarantee: "seguro_fianca", starts_on: plusDays(20), cash_cents: null });
    expect(statusOf(await post(tenant.id, { intent: "proposal_create", property_codigo: rental.codigo, amount: "3.300,00", guarantee: "cheque", valid_until: plusDays(5) }))).toBe(400);
    await post(tenant.id, { intent: "proposal_accept", proposal_id: rentProposal.id });
    expect(await post(tenant.id, { intent: "deal_create", proposal_id: rentProposal.id, final_value: "3.350,50", closed_on: brokerDay(new Date()) })).toMatchObject({ ok: true });
    expect((await db().select().from(deals).where(eq(deals.proposal_id, rentProposal.id)))[0]).toMatchObject({ kind: "aluguel", commission_percent: 100, commission_cents: 335_050 });
    expect((await db().select().from(properties).where(eq(properties.id, rental.id)))[0].status).toBe("alugado");
    // A proposal for a listing already rented is refused.
    const late = await insertLead(test.runtime, { full_name: "Lucas Atrasado" });
    expect(statusOf(await post(late.id, { intent: "proposal_create", property_codigo: rental.codigo, amount: "3.300,00", valid_until: plusDays(5) }))).toBe(409);

    // The printable proposal: both parties, the listing, the values, the broker's CRECI.
    const pdf = (await pdfLoader({ request: makeRequest(`/crm/propostas/${saleProposal.id}/proposta.pdf`, { cookie: corretor.cookie }), params: { id: saleProposal.id }, context } as never)) as Response;
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Cache-Control")).toBe("no-store");
    const { text } = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    for (const expected of ["Proposta de compra", "Bruno Comprador", "Otávio Proprietário", sale.codigo, "R$ 400.000", "CRECI-RN 00000-F"]) expect(text).toContain(expected);
    const missing = (await pdfLoader({ request: makeRequest("/crm/propostas/00000000-0000-4000-8000-000000000000/proposta.pdf", { cookie: corretor.cookie }), params: { id: "00000000-0000-4000-8000-000000000000" }, context } as never)) as Response;
    expect(missing.status).toBe(404);
  });

  it("expires open proposals past their validity once, whoever runs the round, and the dashboard lists what is open and due", async () => {
    const property = await insertProperty(test.runtime);
    const lead = await insertLead(test.runtime, { full_name: "Vera Validade" });
    await post(lead.id, { intent: "proposal_create", property_codigo: property.codigo, amount: "450.000,00", valid_until: brokerDay(new Date()) });
    await post(lead.id, { intent: "proposal_create", property_codigo: property.codigo, amount: "455.000,00", valid_until: plusDays(3) });
    const mine = await db().select().from(proposals).where(eq(proposals.lead_id, lead.id));
    expect(mine).toHaveLength(2);

    const dashboard = dataOf(await dashboardLoader({ request: makeRequest("/crm", { cookie: corretor.cookie }), params: {}, context } as never)) as {
      negotiations: { open: { items: { leadName: string; lastParty: string; validUntil: string }[] }; commissions: unknown };
    };
    expect(dashboard.negotiations.open.items.filter((item) => item.leadName === "Vera Validade").map((item) => item.validUntil)).toEqual([brokerDay(new Date()), plusDays(3)]);
    expect(dashboard.negotiations.commissions).toBeNull();
    const adminDashboard = dataOf(await dashboardLoader({ request: makeRequest("/crm", { cookie: admin.cookie }), params: {}, context } as never)) as {
      negotiations: { commissions: { totalCents: number; items: { cents: number }[] } };
    };
    // The earlier test's sale (5 % of R$ 400.000) and rental (the first rent) wait, with no due date.
    expect(adminDashboard.negotiations.commissions.totalCents).toBe(2_000_000 + 335_050);

    // Valid through today: not expired today; expired on the next day, by the housekeeping round, once.
    expect(await expireProposals(db(), brokerDay(new Date()))).toBe(0);
    const tomorrow = plusDays(1);
    const [first, second] = await Promise.all([expireProposals(db(), tomorrow), expireProposals(db(), tomorrow)]);
    expect(first + second).toBe(1);
    expect(await expireProposals(db(), tomorrow)).toBe(0);
    const statuses = (await db().select().from(proposals).where(eq(proposals.lead_id, lead.id))).map((row) => [row.valid_until, row.status]).sort();
    expect(statuses).toEqual([
      [brokerDay(new Date()), "expirada"],
      [plusDays(3), "em_negociacao"],
    ]);
    // The hourly round runs the same expiry (with the day of now): nothing more to expire today.
    await housekeepingRound(test.runtime);
    expect((await db().select().from(proposals).where(eq(proposals.status, "em_negociacao"))).some((row) => row.lead_id === lead.id)).toBe(true);
    const expired = mine.find((row) => row.valid_until === brokerDay(new Date()))!;
    expect(statusOf(await post(lead.id, { intent: "proposal_accept", proposal_id: expired.id }))).toBe(409);
    expect(await db().select().from(proposal_offers).where(eq(proposal_offers.proposal_id, expired.id))).toHaveLength(1);
  });

  it("the reports' 'Valor vendido' counts the price a deal closed at, and 'Comissões' its commission (for who may see it)", async () => {
    const parsed = parsePeriod(new URLSearchParams({ periodo: "mes" }));
    if (!parsed.ok) throw new Error(parsed.message);
    const before = await loadReport(db(), parsed.period, { commissions: true });
    expect((await loadReport(db(), parsed.period)).summary.commission).toBeNull();
    const property = await insertProperty(test.runtime, { price: 700000 });
    const lead = await insertLead(test.runtime, { full_name: "Renata Relatório" });
    await post(lead.id, { intent: "proposal_create", property_codigo: property.codigo, amount: "650.000,00", valid_until: plusDays(3) });
    const [proposal] = await db().select().from(proposals).where(eq(proposals.lead_id, lead.id));
    await post(lead.id, { intent: "proposal_accept", proposal_id: proposal.id });
    expect(await post(lead.id, { intent: "deal_create", proposal_id: proposal.id, final_value: "650.000,00", closed_on: brokerDay(new Date()), commission_percent: "6" }, admin)).toMatchObject({ ok: true });
    const after = await loadReport(db(), parsed.period, { commissions: true });
    expect(after.summary.sold.current! - before.summary.sold.current!).toBe(1);
    expect(after.summary.soldValue.current! - before.summary.soldValue.current!).toBe(650_000);
    expect(after.summary.commission!.current! - before.summary.commission!.current!).toBe(39_000);
    expect(after.sales.find((sale) => sale.codigo === property.codigo)).toMatchObject({ price: 700000, finalValue: 650_000 });
    // 'Vendas e locações' (page and downloads) shows both: the asking price and what it closed for.
    const vendas = reportTables(after).vendas;
    const row = vendas.rows.find((cells) => cells[0] === property.codigo)!;
    expect(row[vendas.columns.findIndex((column) => column.header === "Preço anunciado (R$)")]).toBe(700000);
    expect(row[vendas.columns.findIndex((column) => column.header === "Valor fechado (R$)")]).toBe(650_000);
  });

  it("a proposal made from the listing's page: the lead chosen, the listing always this one", async () => {
    const property = await insertProperty(test.runtime, { purpose: "aluguel", price: 2500 });
    const other = await insertProperty(test.runtime);
    const lead = await insertLead(test.runtime, { full_name: "Lia Pela Listagem", property_id: property.id });
    const listingPost = (form: Record<string, string>) =>
      settle(() => negotiationsAction({ request: makeRequest(`/crm/imoveis/${property.id}/negociacoes`, { form, cookie: corretor.cookie }), params: { id: property.id }, context } as never));
    const loaded = (await negotiationsLoader({ request: makeRequest(`/crm/imoveis/${property.id}/negociacoes`, { cookie: corretor.cookie }), params: { id: property.id }, context } as never)) as {
      leadOptions: { id: string; full_name: string }[];
    };
    // The lead who came through this listing comes first.
    expect(loaded.leadOptions[0]).toEqual({ id: lead.id, full_name: "Lia Pela Listagem" });
    expect(dataOf(await listingPost({ intent: "proposal_create", lead_id: "", amount: "2.400,00", valid_until: plusDays(3) }))).toEqual({ ok: false, message: "Escolha o lead que fez a proposta" });
    expect(statusOf(await listingPost({ intent: "proposal_offer", lead_id: lead.id }))).toBe(400);
    expect(await listingPost({ intent: "proposal_create", lead_id: lead.id, property_codigo: other.codigo, amount: "2.400,00", valid_until: plusDays(3) })).toMatchObject({ ok: true });
    const [made] = await db().select().from(proposals).where(eq(proposals.lead_id, lead.id));
    expect(made).toMatchObject({ property_id: property.id, kind: "aluguel", amount_cents: 240_000 });
  });

  it("a proposal is reached only through its own lead", async () => {
    const property = await insertProperty(test.runtime);
    const owner = await insertLead(test.runtime, { full_name: "Dono da Proposta" });
    const stranger = await insertLead(test.runtime, { full_name: "Outro Lead" });
    await post(owner.id, { intent: "proposal_create", property_codigo: property.codigo, amount: "300.000,00", valid_until: plusDays(3) });
    const [proposal] = await db().select().from(proposals).where(eq(proposals.lead_id, owner.id));
    expect(statusOf(await post(stranger.id, { intent: "proposal_accept", proposal_id: proposal.id }))).toBe(404);
    expect(statusOf(await post(stranger.id, { intent: "proposal_offer", proposal_id: proposal.id, party: "cliente", amount: "1,00" }))).toBe(404);
    expect(statusOf(await post(owner.id, { intent: "proposal_accept", proposal_id: "not-a-uuid" }))).toBe(404);
    expect((await db().select().from(proposals).where(eq(proposals.id, proposal.id)))[0].status).toBe("em_negociacao");
  });
});
