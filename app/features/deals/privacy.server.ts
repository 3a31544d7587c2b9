import { asc, eq, inArray, isNotNull, and } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { deals, properties, proposal_offers, proposals } from "~/db/schema";
import type { Tx } from "~/features/audit/audit.server";
import { ANONYMIZED } from "~/features/privacy/markers";
import { RENTAL_GUARANTEE_LABELS } from "~/features/properties/labels";
import { formatDateTime } from "~/lib/format";
import { dayLabel, OFFER_PARTY_LABELS, PAYMENT_FIELDS, PAYMENT_LABELS, PROPOSAL_STATUS_LABELS } from "./labels";
import { formatCents } from "./money";

/**
 * A person's proposals in the privacy tools (issue 24): they are the person's data, so the
 * export holds them (offers and deals included) and an anonymisation removes what the person
 * offered and asked for — the amounts of the proposal and its offers, the payment terms, the
 * guarantee, the conditions, the notes. A deal that closed keeps its final value and commission:
 * the broker's own accounting record (LGPD art. 16, I: a legal obligation), with no name in it.
 */

export type PersonProposal = {
  id: string;
  lead_id: string;
  imovel: string;
  tipo: string;
  situacao: string;
  valor: string | null;
  pagamento: string[];
  garantia: string | null;
  inicio: string | null;
  condicoes: string | null;
  validade: string;
  criada_em: string;
  ofertas: { quem: string; valor: string | null; observacao: string | null; em: string }[];
  negocios: { valor_final: string; fechado_em: string; desfeito_em: string | null; motivo: string | null }[];
};

export async function personProposals(db: Database, leadIds: string[]): Promise<PersonProposal[]> {
  if (leadIds.length === 0) return [];
  const rows = await db
    .select({ proposal: proposals, codigo: properties.codigo, title: properties.title })
    .from(proposals)
    .innerJoin(properties, eq(properties.id, proposals.property_id))
    .where(inArray(proposals.lead_id, leadIds))
    .orderBy(asc(proposals.created_at), asc(proposals.id));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.proposal.id);
  const [offers, dealRows] = await Promise.all([
    db.select().from(proposal_offers).where(inArray(proposal_offers.proposal_id, ids)).orderBy(asc(proposal_offers.at)),
    db.select().from(deals).where(inArray(deals.proposal_id, ids)).orderBy(asc(deals.created_at)),
  ]);
  const money = (cents: number | null) => (cents === null ? null : formatCents(cents));
  return rows.map(({ proposal, codigo, title }) => ({
    id: proposal.id,
    lead_id: proposal.lead_id,
    imovel: `${codigo} - ${title}`,
    tipo: proposal.kind === "venda" ? "Compra" : "Locação",
    situacao: PROPOSAL_STATUS_LABELS[proposal.status],
    valor: money(proposal.amount_cents),
    pagamento: PAYMENT_FIELDS.filter((field) => proposal[field] !== null).map((field) => `${PAYMENT_LABELS[field]}: ${formatCents(proposal[field]!)}`),
    garantia: proposal.guarantee ? RENTAL_GUARANTEE_LABELS[proposal.guarantee] : null,
    inicio: proposal.starts_on ? dayLabel(proposal.starts_on) : null,
    condicoes: proposal.conditions,
    validade: dayLabel(proposal.valid_until),
    criada_em: formatDateTime(proposal.created_at),
    ofertas: offers
      .filter((offer) => offer.proposal_id === proposal.id)
      .map((offer) => ({ quem: OFFER_PARTY_LABELS[offer.party], valor: money(offer.amount_cents), observacao: offer.note, em: formatDateTime(offer.at) })),
    negocios: dealRows
      .filter((deal) => deal.proposal_id === proposal.id)
      .map((deal) => ({ valor_final: formatCents(deal.final_value_cents), fechado_em: dayLabel(deal.closed_on), desfeito_em: deal.undone_at ? formatDateTime(deal.undone_at) : null, motivo: deal.undo_reason })),
  }));
}

/** Inside the anonymisation's transaction: what the person offered and wrote goes. Returns the proposals touched. */
export async function anonymizePersonProposals(tx: Tx, leadIds: string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const rows = await tx
    .update(proposals)
    .set({
      amount_cents: null,
      cash_cents: null,
      financing_cents: null,
      fgts_cents: null,
      exchange_cents: null,
      guarantee: null,
      starts_on: null,
      conditions: null,
      anonymized_at: new Date(),
    })
    .where(inArray(proposals.lead_id, leadIds))
    .returning({ id: proposals.id });
  if (rows.length === 0) return 0;
  const ids = rows.map((row) => row.id);
  await tx.update(proposal_offers).set({ amount_cents: null, note: null }).where(inArray(proposal_offers.proposal_id, ids));
  await tx.update(deals).set({ undo_reason: ANONYMIZED.text }).where(and(inArray(deals.proposal_id, ids), isNotNull(deals.undo_reason)));
  return rows.length;
}
