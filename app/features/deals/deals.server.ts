import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { deal_splits, deals, leads, properties, property_captacao, proposals } from "~/db/schema";
import { type AuditActor, recordAudit, type Tx } from "~/features/audit/audit.server";
import { setActor } from "~/features/leads/timeline-actor.server";
import { isUuid } from "~/lib/ids";
import type { DealSettings } from "./deal-settings";
import { percentOf } from "./money";
import type { CommissionInput, DealInput, SplitInput } from "./schema";

/**
 * Deals (issue 24, item 2): an accepted proposal that closed. Closing writes the deal, sets the
 * listing to vendido/alugado and the lead to convertido in ONE transaction, so the public site's
 * list and the funnel change at the same instant (the listing's and lead's triggers notify every
 * process after the commit). Undoing keeps the deal row (undone_at, who, why) and puts the
 * listing back to disponível and the lead to em atendimento, again in one transaction.
 */

export type DealResult =
  | { ok: true; id: string }
  | { ok: false; reason: "not-found" | "not-accepted" | "already-closed" | "property-taken" };

const actorName = (actor: AuditActor) => (actor ? (actor.name ?? actor.email) : null);

/**
 * The commission % a new deal starts with, in hundredths: a sale takes the listing's captação
 * commission when it names one, else the settings' default; a rental the settings' share of the
 * first monthly rent.
 */
export async function defaultCommissionHundredths(db: Database | Tx, propertyId: string, kind: "venda" | "aluguel", settings: DealSettings): Promise<number> {
  if (kind === "aluguel") return Math.round(settings.rentFirstRentPercent * 100);
  const [captacao] = await db.select({ commission: property_captacao.commission }).from(property_captacao).where(eq(property_captacao.property_id, propertyId));
  const percent = captacao?.commission ?? settings.salePercent;
  return Math.round(Number(percent) * 100);
}

async function writeSplits(tx: Tx, dealId: string, splits: SplitInput[]) {
  await tx.delete(deal_splits).where(eq(deal_splits.deal_id, dealId));
  if (splits.length === 0) return;
  await tx.insert(deal_splits).values(splits.map((split, position) => ({ deal_id: dealId, position, name: split.name, creci: split.creci, percent: split.percentHundredths / 100 })));
}

export async function closeDeal(
  db: Database,
  actor: AuditActor,
  leadId: string,
  input: DealInput,
  options: { settings: DealSettings; splits: SplitInput[] },
): Promise<DealResult> {
  if (!isUuid(leadId) || !isUuid(input.proposal_id)) return { ok: false, reason: "not-found" };
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    const [proposal] = await tx
      .select({ id: proposals.id, status: proposals.status, kind: proposals.kind, property_id: proposals.property_id })
      .from(proposals)
      .where(and(eq(proposals.id, input.proposal_id), eq(proposals.lead_id, leadId)))
      .for("update");
    if (!proposal) return { ok: false, reason: "not-found" } as const;
    if (proposal.status !== "aceita") return { ok: false, reason: "not-accepted" } as const;
    // The listing's row lock orders two deals on one listing; the partial unique indexes are the last word.
    const [property] = await tx.select({ id: properties.id, codigo: properties.codigo }).from(properties).where(eq(properties.id, proposal.property_id)).for("update");
    if (!property) return { ok: false, reason: "not-found" } as const;
    const standing = await tx
      .select({ proposal_id: deals.proposal_id })
      .from(deals)
      .where(and(eq(deals.property_id, property.id), isNull(deals.undone_at)));
    if (standing.some((deal) => deal.proposal_id === proposal.id)) return { ok: false, reason: "already-closed" } as const;
    if (standing.length > 0) return { ok: false, reason: "property-taken" } as const;

    const hundredths = input.commission_percent ?? (await defaultCommissionHundredths(tx, property.id, proposal.kind, options.settings));
    const [deal] = await tx
      .insert(deals)
      .values({
        proposal_id: proposal.id,
        lead_id: leadId,
        property_id: property.id,
        kind: proposal.kind,
        final_value_cents: input.final_value,
        closed_on: input.closed_on,
        commission_percent: hundredths / 100,
        commission_cents: percentOf(input.final_value, hundredths),
        commission_due_on: input.commission_due_on,
        created_by: actor?.id ?? null,
        created_by_name: actorName(actor),
      })
      .returning({ id: deals.id });
    await writeSplits(tx, deal.id, options.splits);

    const status = proposal.kind === "venda" ? "vendido" : "alugado";
    await tx.update(properties).set({ status, updated_at: new Date() }).where(eq(properties.id, property.id));
    await tx.update(leads).set({ status: "convertido" }).where(and(eq(leads.id, leadId), sql`status <> 'convertido'`));
    await recordAudit(tx, { actor, action: "deal.create", entity: "deal", entityId: deal.id, details: { lead: leadId, codigo: property.codigo, splits: options.splits.length } });
    await recordAudit(tx, { actor, action: "property.update", entity: "property", entityId: property.id, details: { fields: ["status"] } });
    await recordAudit(tx, { actor, action: "lead.update", entity: "lead", entityId: leadId, details: { fields: ["status"] } });
    return { ok: true, id: deal.id } as const;
  });
}

/** Undoes a standing deal: recorded on the deal, the listing and the lead put back. */
export async function undoDeal(db: Database, actor: AuditActor, leadId: string, dealId: string, reason: string | null): Promise<DealResult> {
  if (!isUuid(leadId) || !isUuid(dealId)) return { ok: false, reason: "not-found" };
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    const [deal] = await tx
      .select({ id: deals.id, property_id: deals.property_id })
      .from(deals)
      .where(and(eq(deals.id, dealId), eq(deals.lead_id, leadId), isNull(deals.undone_at)))
      .for("update");
    if (!deal) return { ok: false, reason: "not-found" } as const;
    await tx.update(deals).set({ undone_at: new Date(), undone_by_name: actorName(actor), undo_reason: reason }).where(eq(deals.id, deal.id));
    // Only what the deal set is put back: a listing or lead changed by hand since stays as it is.
    await tx
      .update(properties)
      .set({ status: "disponivel", updated_at: new Date() })
      .where(and(eq(properties.id, deal.property_id), sql`status in ('vendido', 'alugado')`));
    await tx.update(leads).set({ status: "em_atendimento" }).where(and(eq(leads.id, leadId), eq(leads.status, "convertido")));
    await recordAudit(tx, { actor, action: "deal.undo", entity: "deal", entityId: deal.id, details: { lead: leadId } });
    await recordAudit(tx, { actor, action: "property.update", entity: "property", entityId: deal.property_id, details: { fields: ["status"] } });
    await recordAudit(tx, { actor, action: "lead.update", entity: "lead", entityId: leadId, details: { fields: ["status"] } });
    return { ok: true, id: deal.id } as const;
  });
}

/** The commission's % (value recomputed), payment status and dates, and the partners' split. */
export async function updateCommission(db: Database, actor: AuditActor, leadId: string, input: CommissionInput, splits: SplitInput[], today: string): Promise<DealResult> {
  if (!isUuid(leadId) || !isUuid(input.deal_id)) return { ok: false, reason: "not-found" };
  return db.transaction(async (tx) => {
    const [deal] = await tx
      .select()
      .from(deals)
      .where(and(eq(deals.id, input.deal_id), eq(deals.lead_id, leadId)))
      .for("update");
    if (!deal) return { ok: false, reason: "not-found" } as const;
    const hundredths = input.commission_percent ?? Math.round(deal.commission_percent * 100);
    const received = input.commission_status === "recebida";
    await tx
      .update(deals)
      .set({
        commission_percent: hundredths / 100,
        commission_cents: percentOf(deal.final_value_cents, hundredths),
        commission_status: input.commission_status,
        commission_due_on: input.commission_due_on,
        commission_paid_on: received ? (input.commission_paid_on ?? today) : null,
      })
      .where(eq(deals.id, deal.id));
    await writeSplits(tx, deal.id, splits);
    await recordAudit(tx, { actor, action: "deal.commission", entity: "deal", entityId: deal.id, details: { status: input.commission_status, splits: splits.length } });
    return { ok: true, id: deal.id } as const;
  });
}
