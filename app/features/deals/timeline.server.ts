import { desc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { deals, properties, proposal_offers, proposals } from "~/db/schema";
import { OFFER_PARTY_LABELS, PROPOSAL_STATUS_LABELS } from "./labels";
import { formatCents } from "./money";

/**
 * The negotiation's lines in a lead's timeline (issue 24): each offer and counter-offer, each
 * decision (accepted, refused, expired) and each deal closed or undone. Plain title and detail,
 * so the timeline shows them without knowing proposals.
 */

export type NegotiationTimelineItem = {
  kind: "negotiation";
  id: string;
  at: string;
  actor: string | null;
  title: string;
  detail: string | null;
};

const LIMIT = 200;
const iso = (value: Date | string) => new Date(value).toISOString();

export async function negotiationTimeline(db: Database, leadId: string): Promise<NegotiationTimelineItem[]> {
  const rows = await db
    .select({ id: proposals.id, status: proposals.status, kind: proposals.kind, decided_at: proposals.decided_at, codigo: properties.codigo })
    .from(proposals)
    .innerJoin(properties, eq(properties.id, proposals.property_id))
    .where(eq(proposals.lead_id, leadId))
    .orderBy(desc(proposals.created_at))
    .limit(LIMIT);
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const [offers, dealRows] = await Promise.all([
    db.select().from(proposal_offers).where(inArray(proposal_offers.proposal_id, ids)).orderBy(proposal_offers.at).limit(LIMIT),
    db.select().from(deals).where(inArray(deals.proposal_id, ids)).limit(LIMIT),
  ]);
  const items: NegotiationTimelineItem[] = [];
  const firstOffer = new Set<string>();
  for (const offer of offers) {
    const proposal = byId.get(offer.proposal_id)!;
    const first = !firstOffer.has(offer.proposal_id);
    firstOffer.add(offer.proposal_id);
    const amount = offer.amount_cents === null ? "valor removido" : `${formatCents(offer.amount_cents)}${proposal.kind === "aluguel" ? "/mês" : ""}`;
    items.push({
      kind: "negotiation",
      id: offer.id,
      at: iso(offer.at),
      actor: offer.actor_name,
      title: first ? `Proposta para ${proposal.codigo}: ${amount}` : `${offer.party === "proprietario" ? "Contraproposta do proprietário" : "Nova oferta do cliente"} (${proposal.codigo}): ${amount}`,
      detail: [first ? null : `por ${OFFER_PARTY_LABELS[offer.party]}`, offer.note, offer.actor_name ? `registrada por ${offer.actor_name}` : null].filter(Boolean).join(" · ") || null,
    });
  }
  for (const proposal of rows) {
    if (!proposal.decided_at || proposal.status === "em_negociacao") continue;
    items.push({ kind: "negotiation", id: `${proposal.id}-decision`, at: iso(proposal.decided_at), actor: null, title: `Proposta ${PROPOSAL_STATUS_LABELS[proposal.status].toLowerCase()} (${proposal.codigo})`, detail: null });
  }
  for (const deal of dealRows) {
    const codigo = byId.get(deal.proposal_id)?.codigo ?? "";
    items.push({
      kind: "negotiation",
      id: deal.id,
      at: iso(deal.created_at),
      actor: deal.created_by_name,
      title: `Negócio fechado (${codigo}): ${formatCents(deal.final_value_cents)}`,
      detail: deal.created_by_name ? `por ${deal.created_by_name}` : null,
    });
    if (deal.undone_at) {
      items.push({
        kind: "negotiation",
        id: `${deal.id}-undo`,
        at: iso(deal.undone_at),
        actor: deal.undone_by_name,
        title: `Negócio desfeito (${codigo})`,
        detail: [deal.undo_reason, deal.undone_by_name ? `por ${deal.undone_by_name}` : null].filter(Boolean).join(" · ") || null,
      });
    }
  }
  return items;
}
