import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { deals, proposals, settings } from "~/db/schema";
import type { ProposalStatus } from "~/db/values-deals";
import { action as leadAction, loader as leadLoader } from "~/routes/crm-lead";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { loader as pdfLoader } from "~/routes/crm-proposal-pdf";
import { action as negotiationsAction, loader as negotiationsLoader } from "~/routes/crm-property-negotiations";
import { action as settingsAction } from "~/routes/crm-settings";
import { loader as reportsLoader } from "~/routes/crm-reports";
import { loader as reportsExportLoader } from "~/routes/crm-reports-export";
import { ACTORS, ADMIN_PAGE_RULE, type Actor, API_RULE, context, matrixRuntime, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { insertLead, insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix of proposals and deals (issue 24, decision 026): every new loader,
 * action intent and resource route for an anonymous visitor, a user without a role, a corretor
 * and an admin, with the database read after each write. Staff manage proposals and deals;
 * commissions and splits are admin-only unless the settings open them to corretores.
 */

/** A thrown data(…, { status }) is no Response: settle() passes it through, this catches it. */
async function run(work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await settle(work);
  } catch (error) {
    if (error && typeof error === "object" && "init" in error) return error;
    throw error;
  }
}
const allowed = (rule: Record<Actor, { kind: string }>, actor: Actor) => rule[actor].kind === "ok";
const farDay = "2099-12-31";

describe.each(DATABASE_KINDS)("proposals and deals authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;
  const db = () => matrix.runtime.db;

  beforeAll(async () => {
    await db().delete(settings).where(eq(settings.key, "deal_settings"));
  });

  /** A lead with a proposal in `status` for a fresh listing; with a standing deal when asked. */
  const negotiation = async (status: ProposalStatus, withDeal = false) => {
    const property = await insertProperty(matrix.runtime, { status: withDeal ? "vendido" : "disponivel" });
    const lead = await insertLead(matrix.runtime, { status: withDeal ? "convertido" : "em_atendimento" });
    const [proposal] = await db()
      .insert(proposals)
      .values({ lead_id: lead.id, property_id: property.id, kind: "venda", status, amount_cents: 30_000_000, valid_until: farDay })
      .returning();
    const deal = withDeal
      ? (
          await db()
            .insert(deals)
            .values({ proposal_id: proposal.id, lead_id: lead.id, property_id: property.id, kind: "venda", final_value_cents: 30_000_000, closed_on: "2026-11-01", commission_percent: 6, commission_cents: 1_800_000 })
            .returning()
        )[0]
      : null;
    return { property, lead, proposal, deal };
  };
  const post = (leadId: string, actor: Actor, form: Record<string, string>) =>
    run(() => leadAction({ request: makeRequest(`/crm/leads/${leadId}`, { form, cookie: cookieOf(actor) }), params: { id: leadId }, context } as never));
  const proposalOf = async (id: string) => (await db().select().from(proposals).where(eq(proposals.id, id)))[0];
  const dealsOf = async (proposalId: string) => (await db().select({ n: count() }).from(deals).where(eq(deals.proposal_id, proposalId)))[0].n;

  it.each(ACTORS)("loader /crm/imoveis/:id/negociacoes for %s", async (actor) => {
    const { property } = await negotiation("em_negociacao");
    const result = await run(() => negotiationsLoader({ request: makeRequest(`/crm/imoveis/${property.id}/negociacoes`, { cookie: cookieOf(actor) }), params: { id: property.id }, context } as never));
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
  });

  it.each(ACTORS)("action proposal_create for %s", async (actor) => {
    const property = await insertProperty(matrix.runtime);
    const lead = await insertLead(matrix.runtime);
    const result = await post(lead.id, actor, { intent: "proposal_create", property_codigo: property.codigo, amount: "300.000,00", valid_until: farDay });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect((await db().select({ n: count() }).from(proposals).where(eq(proposals.lead_id, lead.id)))[0].n).toBe(allowed(PAGE_RULE, actor) ? 1 : 0);
  });

  it.each(ACTORS)("action proposal_create on the listing's page for %s", async (actor) => {
    const property = await insertProperty(matrix.runtime);
    const lead = await insertLead(matrix.runtime);
    const result = await run(() =>
      negotiationsAction({
        request: makeRequest(`/crm/imoveis/${property.id}/negociacoes`, { form: { intent: "proposal_create", lead_id: lead.id, amount: "300.000,00", valid_until: farDay }, cookie: cookieOf(actor) }),
        params: { id: property.id },
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const made = await db().select().from(proposals).where(eq(proposals.lead_id, lead.id));
    expect(made.map((row) => row.property_id)).toEqual(allowed(PAGE_RULE, actor) ? [property.id] : []);
  });

  it.each(ACTORS)("action proposal_offer for %s", async (actor) => {
    const { lead, proposal } = await negotiation("em_negociacao");
    const result = await post(lead.id, actor, { intent: "proposal_offer", proposal_id: proposal.id, party: "proprietario", amount: "320.000,00" });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect((await proposalOf(proposal.id)).amount_cents).toBe(allowed(PAGE_RULE, actor) ? 32_000_000 : 30_000_000);
  });

  for (const [intent, status] of [
    ["proposal_accept", "aceita"],
    ["proposal_reject", "recusada"],
  ] as const) {
    it.each(ACTORS)(`action ${intent} for %s`, async (actor) => {
      const { lead, proposal } = await negotiation("em_negociacao");
      const result = await post(lead.id, actor, { intent, proposal_id: proposal.id });
      expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
      expect((await proposalOf(proposal.id)).status).toBe(allowed(PAGE_RULE, actor) ? status : "em_negociacao");
    });
  }

  it.each(ACTORS)("action deal_create without commission fields for %s", async (actor) => {
    const { lead, proposal } = await negotiation("aceita");
    const result = await post(lead.id, actor, { intent: "deal_create", proposal_id: proposal.id, final_value: "300.000,00", closed_on: "2026-11-20" });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect(await dealsOf(proposal.id)).toBe(allowed(PAGE_RULE, actor) ? 1 : 0);
  });

  it.each(ACTORS)("action deal_create with a commission and a split (admins only by default) for %s", async (actor) => {
    const { lead, proposal } = await negotiation("aceita");
    const result = await post(lead.id, actor, {
      intent: "deal_create",
      proposal_id: proposal.id,
      final_value: "300.000,00",
      closed_on: "2026-11-20",
      commission_percent: "5",
      "split.0.name": "Parceira Teste",
      "split.0.percent": "40",
    });
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    expect(await dealsOf(proposal.id)).toBe(actor === "admin" ? 1 : 0);
  });

  it.each(ACTORS)("action deal_commission (admins only by default) for %s", async (actor) => {
    const { lead, deal } = await negotiation("aceita", true);
    const result = await post(lead.id, actor, { intent: "deal_commission", deal_id: deal!.id, commission_status: "recebida", commission_paid_on: "2026-11-25" });
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    expect((await db().select().from(deals).where(eq(deals.id, deal!.id)))[0].commission_status).toBe(actor === "admin" ? "recebida" : "a_receber");
  });

  it.each(ACTORS)("action deal_commission when the settings open commissions to corretores, for %s", async (actor) => {
    await db().insert(settings).values({ key: "deal_settings", value: { salePercent: 6, rentFirstRentPercent: 100, corretorSeesCommissions: true } });
    try {
      const { lead, deal } = await negotiation("aceita", true);
      const result = await post(lead.id, actor, { intent: "deal_commission", deal_id: deal!.id, commission_status: "recebida" });
      expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
      const page = await run(() => leadLoader({ request: makeRequest(`/crm/leads/${lead.id}`, { cookie: cookieOf(actor) }), params: { id: lead.id }, context } as never));
      if (allowed(PAGE_RULE, actor)) expect((page as { negotiations: { seeCommissions: boolean } }).negotiations.seeCommissions).toBe(true);
    } finally {
      await db().delete(settings).where(eq(settings.key, "deal_settings"));
    }
  });

  it.each(ACTORS)("action deal_undo for %s", async (actor) => {
    const { lead, deal } = await negotiation("aceita", true);
    const result = await post(lead.id, actor, { intent: "deal_undo", deal_id: deal!.id });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect((await db().select().from(deals).where(eq(deals.id, deal!.id)))[0].undone_at !== null).toBe(allowed(PAGE_RULE, actor));
  });

  it.each(ACTORS)("the lead page shows commissions to admins only (by default), for %s", async (actor) => {
    const { lead } = await negotiation("aceita", true);
    const result = await run(() => leadLoader({ request: makeRequest(`/crm/leads/${lead.id}`, { cookie: cookieOf(actor) }), params: { id: lead.id }, context } as never));
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    if (!allowed(PAGE_RULE, actor)) return;
    const { negotiations } = result as { negotiations: { proposals: { deals: { commission: unknown }[] }[] } };
    expect(negotiations.proposals[0].deals[0].commission === null).toBe(actor !== "admin");
  });

  it.each(ACTORS)("the dashboard's commissions to receive: admins only (by default), for %s", async (actor) => {
    const result = await run(() => dashboardLoader({ request: makeRequest("/crm", { cookie: cookieOf(actor) }), params: {}, context } as never));
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    if (!allowed(PAGE_RULE, actor)) return;
    const { negotiations } = result as { negotiations: { open: unknown; commissions: unknown } };
    expect(negotiations.open).toBeTruthy();
    expect(negotiations.commissions === null).toBe(actor !== "admin");
  });

  it.each(ACTORS)("the reports' commissions (page and download): admins only (by default), for %s", async (actor) => {
    const page = await run(() => reportsLoader({ request: makeRequest("/crm/relatorios", { cookie: cookieOf(actor) }), params: {}, context } as never));
    expect(outcomeOf(page)).toEqual(PAGE_RULE[actor]);
    const download = await run(() => reportsExportLoader({ request: makeRequest("/crm/relatorios/exportar?relatorio=resumo&formato=csv", { cookie: cookieOf(actor) }), params: {}, context } as never));
    expect(outcomeOf(download)).toEqual(API_RULE[actor]);
    if (!allowed(PAGE_RULE, actor)) return;
    expect((page as { report: { summary: { commission: unknown } } }).report.summary.commission === null).toBe(actor !== "admin");
    expect((await (download as Response).text()).includes("Comissões (R$)")).toBe(actor === "admin");
  });

  it.each(ACTORS)("GET /crm/propostas/:id/proposta.pdf for %s", async (actor) => {
    const { proposal } = await negotiation("em_negociacao");
    const result = await run(() => pdfLoader({ request: makeRequest(`/crm/propostas/${proposal.id}/proposta.pdf`, { cookie: cookieOf(actor) }), params: { id: proposal.id }, context } as never));
    expect(outcomeOf(result)).toEqual(API_RULE[actor]);
  });

  it.each(ACTORS)("settings intent 'deals' (admins) for %s", async (actor) => {
    const result = await run(() =>
      settingsAction({ request: makeRequest("/crm/configuracoes", { form: { intent: "deals", salePercent: "5,5", rentFirstRentPercent: "100" }, cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    const [row] = await db().select().from(settings).where(eq(settings.key, "deal_settings"));
    expect(row?.value ?? null).toEqual(actor === "admin" ? { salePercent: 5.5, rentFirstRentPercent: 100, corretorSeesCommissions: false } : null);
    await db().delete(settings).where(eq(settings.key, "deal_settings"));
  });
});
