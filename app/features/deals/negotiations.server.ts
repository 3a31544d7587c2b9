import { asc, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { deal_splits, deals, leads, properties, proposal_offers, proposals } from "~/db/schema";
import type { PropertyPurpose, RentalGuarantee } from "~/db/values";
import type { CommissionStatus, OfferParty, ProposalStatus } from "~/db/values-deals";
import { isUuid } from "~/lib/ids";
import type { DealSettings } from "./deal-settings";
import { defaultCommissionHundredths } from "./deals.server";
import { percentOf } from "./money";

/**
 * What the lead page's and the listing's 'Negociações' show: each proposal with its offers and
 * its deals (standing or undone). Commissions and splits only for whoever may see them
 * (admins; corretores when the settings say so): otherwise they never leave the server.
 */

export type OfferView = { id: string; party: OfferParty; amountCents: number | null; note: string | null; actor: string | null; at: string };
export type SplitView = { name: string; creci: string | null; percent: number; cents: number };
export type CommissionView = {
  percent: number;
  cents: number;
  status: CommissionStatus;
  dueOn: string | null;
  paidOn: string | null;
  splits: SplitView[];
  brokerPercent: number;
  brokerCents: number;
};
export type DealView = {
  id: string;
  finalValueCents: number;
  closedOn: string;
  createdBy: string | null;
  createdAt: string;
  undoneAt: string | null;
  undoneBy: string | null;
  undoReason: string | null;
  commission: CommissionView | null;
};
export type ProposalView = {
  id: string;
  kind: PropertyPurpose;
  status: ProposalStatus;
  amountCents: number | null;
  payments: { cash_cents: number | null; financing_cents: number | null; fgts_cents: number | null; exchange_cents: number | null };
  guarantee: RentalGuarantee | null;
  startsOn: string | null;
  conditions: string | null;
  validUntil: string;
  createdAt: string;
  createdBy: string | null;
  decidedAt: string | null;
  property: { id: string; codigo: string; title: string; priceCents: number; status: string };
  lead: { id: string; full_name: string };
  offers: OfferView[];
  deals: DealView[];
  /** For an accepted proposal not closed yet: the commission % the deal form starts with (null when hidden). */
  defaultCommissionPercent: number | null;
};

const iso = (value: Date | string) => new Date(value).toISOString();

async function loadViews(db: Database, where: ReturnType<typeof eq>, settings: DealSettings, seeCommissions: boolean): Promise<ProposalView[]> {
  const rows = await db
    .select({ proposal: proposals, codigo: properties.codigo, title: properties.title, price: properties.price, propertyStatus: properties.status, leadName: leads.full_name })
    .from(proposals)
    .innerJoin(properties, eq(properties.id, proposals.property_id))
    .innerJoin(leads, eq(leads.id, proposals.lead_id))
    .where(where)
    .orderBy(desc(proposals.created_at), desc(proposals.id))
    .limit(100);
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.proposal.id);
  const [offerRows, dealRows] = await Promise.all([
    db.select().from(proposal_offers).where(inArray(proposal_offers.proposal_id, ids)).orderBy(asc(proposal_offers.at), asc(proposal_offers.id)),
    db.select().from(deals).where(inArray(deals.proposal_id, ids)).orderBy(desc(deals.created_at)),
  ]);
  const splitRows = seeCommissions && dealRows.length
    ? await db.select().from(deal_splits).where(inArray(deal_splits.deal_id, dealRows.map((deal) => deal.id))).orderBy(asc(deal_splits.position))
    : [];

  const views: ProposalView[] = [];
  for (const { proposal, codigo, title, price, propertyStatus, leadName } of rows) {
    const proposalDeals = dealRows.filter((deal) => deal.proposal_id === proposal.id);
    const closed = proposalDeals.some((deal) => deal.undone_at === null);
    views.push({
      id: proposal.id,
      kind: proposal.kind,
      status: proposal.status,
      amountCents: proposal.amount_cents,
      payments: { cash_cents: proposal.cash_cents, financing_cents: proposal.financing_cents, fgts_cents: proposal.fgts_cents, exchange_cents: proposal.exchange_cents },
      guarantee: proposal.guarantee,
      startsOn: proposal.starts_on,
      conditions: proposal.conditions,
      validUntil: proposal.valid_until,
      createdAt: iso(proposal.created_at),
      createdBy: proposal.created_by_name,
      decidedAt: proposal.decided_at ? iso(proposal.decided_at) : null,
      property: { id: proposal.property_id, codigo, title, priceCents: Math.round(price * 100), status: propertyStatus },
      lead: { id: proposal.lead_id, full_name: leadName },
      offers: offerRows
        .filter((offer) => offer.proposal_id === proposal.id)
        .map((offer) => ({ id: offer.id, party: offer.party, amountCents: offer.amount_cents, note: offer.note, actor: offer.actor_name, at: iso(offer.at) })),
      deals: proposalDeals.map((deal) => {
        const splits = splitRows
          .filter((split) => split.deal_id === deal.id)
          .map((split) => ({ name: split.name, creci: split.creci, percent: split.percent, cents: percentOf(deal.commission_cents, Math.round(split.percent * 100)) }));
        const partnersHundredths = splits.reduce((sum, split) => sum + Math.round(split.percent * 100), 0);
        return {
          id: deal.id,
          finalValueCents: deal.final_value_cents,
          closedOn: deal.closed_on,
          createdBy: deal.created_by_name,
          createdAt: iso(deal.created_at),
          undoneAt: deal.undone_at ? iso(deal.undone_at) : null,
          undoneBy: deal.undone_by_name,
          undoReason: deal.undo_reason,
          commission: seeCommissions
            ? {
                percent: deal.commission_percent,
                cents: deal.commission_cents,
                status: deal.commission_status,
                dueOn: deal.commission_due_on,
                paidOn: deal.commission_paid_on,
                splits,
                brokerPercent: (10_000 - partnersHundredths) / 100,
                // The broker's share is what the partners' rounded shares leave: the parts add up to the whole.
                brokerCents: deal.commission_cents - splits.reduce((sum, split) => sum + split.cents, 0),
              }
            : null,
        };
      }),
      defaultCommissionPercent:
        seeCommissions && proposal.status === "aceita" && !closed ? (await defaultCommissionHundredths(db, proposal.property_id, proposal.kind, settings)) / 100 : null,
    });
  }
  return views;
}

export function loadLeadNegotiations(db: Database, leadId: string, settings: DealSettings, seeCommissions: boolean): Promise<ProposalView[]> {
  if (!isUuid(leadId)) return Promise.resolve([]);
  return loadViews(db, eq(proposals.lead_id, leadId), settings, seeCommissions);
}

export function loadPropertyNegotiations(db: Database, propertyId: string, settings: DealSettings, seeCommissions: boolean): Promise<ProposalView[]> {
  if (!isUuid(propertyId)) return Promise.resolve([]);
  return loadViews(db, eq(proposals.property_id, propertyId), settings, seeCommissions);
}
