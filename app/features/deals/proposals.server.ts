import { and, eq, inArray, lt } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties, proposal_offers, proposals } from "~/db/schema";
import type { OfferParty } from "~/db/values-deals";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { isUuid } from "~/lib/ids";
import type { OfferInput, ProposalInput } from "./schema";

/**
 * Proposals (issue 24, item 1): made from a lead's page for a listing, with a history of offers
 * and counter-offers, and a status. Every write is one transaction with its audit row (field
 * names and codes only: amounts are the person's data). A proposal is always reached through
 * its lead (the action's page), so an id from another lead's page finds nothing.
 */

export type ProposalResult = { ok: true; id: string } | { ok: false; reason: "lead-not-found" | "property-not-found" | "property-unavailable" | "valid-past" | "not-found" | "not-open" };

const actorName = (actor: AuditActor) => (actor ? (actor.name ?? actor.email) : null);

export async function createProposal(db: Database, actor: AuditActor, leadId: string, input: ProposalInput, today: string): Promise<ProposalResult> {
  if (!isUuid(leadId)) return { ok: false, reason: "lead-not-found" };
  if (input.valid_until < today) return { ok: false, reason: "valid-past" };
  return db.transaction(async (tx) => {
    const [lead] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, leadId)).for("update");
    if (!lead) return { ok: false, reason: "lead-not-found" } as const;
    const [property] = await tx
      .select({ id: properties.id, codigo: properties.codigo, purpose: properties.purpose, status: properties.status })
      .from(properties)
      .where(eq(properties.codigo, input.property_codigo.toUpperCase()));
    if (!property) return { ok: false, reason: "property-not-found" } as const;
    if (property.status === "vendido" || property.status === "alugado") return { ok: false, reason: "property-unavailable" } as const;
    const sale = property.purpose === "venda";
    const [row] = await tx
      .insert(proposals)
      .values({
        lead_id: leadId,
        property_id: property.id,
        kind: property.purpose,
        amount_cents: input.amount,
        cash_cents: sale ? input.cash : null,
        financing_cents: sale ? input.financing : null,
        fgts_cents: sale ? input.fgts : null,
        exchange_cents: sale ? input.exchange : null,
        guarantee: sale ? null : input.guarantee,
        starts_on: sale ? null : input.starts_on,
        conditions: input.conditions ?? null,
        valid_until: input.valid_until,
        created_by: actor?.id ?? null,
        created_by_name: actorName(actor),
      })
      .returning({ id: proposals.id });
    await tx.insert(proposal_offers).values({ proposal_id: row.id, party: "cliente", amount_cents: input.amount, actor_id: actor?.id ?? null, actor_name: actorName(actor) });
    await recordAudit(tx, { actor, action: "proposal.create", entity: "proposal", entityId: row.id, details: { lead: leadId, codigo: property.codigo } });
    return { ok: true, id: row.id } as const;
  });
}

/** An offer or counter-offer on an open proposal: it becomes the proposal's amount. */
export async function addOffer(db: Database, actor: AuditActor, leadId: string, input: OfferInput): Promise<ProposalResult> {
  if (!isUuid(leadId) || !isUuid(input.proposal_id)) return { ok: false, reason: "not-found" };
  return db.transaction(async (tx) => {
    const [proposal] = await tx
      .select({ id: proposals.id, status: proposals.status })
      .from(proposals)
      .where(and(eq(proposals.id, input.proposal_id), eq(proposals.lead_id, leadId)))
      .for("update");
    if (!proposal) return { ok: false, reason: "not-found" } as const;
    if (proposal.status !== "em_negociacao") return { ok: false, reason: "not-open" } as const;
    await tx.insert(proposal_offers).values({
      proposal_id: proposal.id,
      party: input.party as OfferParty,
      amount_cents: input.amount,
      note: input.note ?? null,
      actor_id: actor?.id ?? null,
      actor_name: actorName(actor),
    });
    await tx.update(proposals).set({ amount_cents: input.amount, updated_at: new Date() }).where(eq(proposals.id, proposal.id));
    await recordAudit(tx, { actor, action: "proposal.offer", entity: "proposal", entityId: proposal.id, details: { party: input.party } });
    return { ok: true, id: proposal.id } as const;
  });
}

/** Accepts or refuses an open proposal (at its latest amount). */
export async function decideProposal(db: Database, actor: AuditActor, leadId: string, proposalId: string, decision: "aceita" | "recusada"): Promise<ProposalResult> {
  if (!isUuid(leadId) || !isUuid(proposalId)) return { ok: false, reason: "not-found" };
  return db.transaction(async (tx) => {
    const [proposal] = await tx
      .select({ id: proposals.id, status: proposals.status })
      .from(proposals)
      .where(and(eq(proposals.id, proposalId), eq(proposals.lead_id, leadId)))
      .for("update");
    if (!proposal) return { ok: false, reason: "not-found" } as const;
    if (proposal.status !== "em_negociacao") return { ok: false, reason: "not-open" } as const;
    const now = new Date();
    await tx.update(proposals).set({ status: decision, decided_at: now, updated_at: now }).where(eq(proposals.id, proposal.id));
    await recordAudit(tx, { actor, action: decision === "aceita" ? "proposal.accept" : "proposal.reject", entity: "proposal", entityId: proposal.id });
    return { ok: true, id: proposal.id } as const;
  });
}

/**
 * The hourly housekeeping's part: open proposals whose validity date (a day in the broker's
 * zone) is before today become 'expirada'. One UPDATE: a second round, or another process at
 * the same moment, finds nothing left to change (PostgreSQL rechecks the status of a row it
 * waited for), so each proposal expires once, with one audit row per round that expired any.
 */
export async function expireProposals(db: Database, today: string): Promise<number> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const rows = await tx
      .update(proposals)
      .set({ status: "expirada", decided_at: now, updated_at: now })
      .where(and(eq(proposals.status, "em_negociacao"), lt(proposals.valid_until, today)))
      .returning({ id: proposals.id });
    if (rows.length > 0) {
      await recordAudit(tx, { actor: null, action: "proposal.expire", entity: "proposal", details: { proposalIds: rows.map((row) => row.id) } });
    }
    return rows.length;
  });
}

/** The ids of the proposals of some leads (the privacy tools). */
export async function proposalIdsOfLeads(db: Database | Parameters<Parameters<Database["transaction"]>[0]>[0], leadIds: string[]): Promise<string[]> {
  if (leadIds.length === 0) return [];
  const rows = await db.select({ id: proposals.id }).from(proposals).where(inArray(proposals.lead_id, leadIds));
  return rows.map((row) => row.id);
}

