import { and, asc, count, eq, isNull, lt, sql, sum } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { deals, leads, properties, proposal_offers, proposals } from "~/db/schema";
import type { OfferParty } from "~/db/values-deals";

/**
 * The dashboard's negotiation cards (issue 24, item 5): the open proposals with their next step
 * (whose answer is awaited, from the latest offer) and their validity, soonest first; and — for
 * whoever may see commissions — the commissions still to receive that fall due this month (the
 * broker's calendar month) or earlier, with their total.
 */

export const OPEN_NEGOTIATIONS_SHOWN = 8;

export type OpenNegotiation = {
  id: string;
  leadId: string;
  leadName: string;
  codigo: string;
  kind: "venda" | "aluguel";
  amountCents: number | null;
  validUntil: string;
  /** Who made the latest offer: the other side's answer is the next step. */
  lastParty: OfferParty | null;
};

export type CommissionDue = { dealId: string; leadId: string; leadName: string; codigo: string; cents: number; dueOn: string | null };

export async function openNegotiations(db: Database): Promise<{ total: number; items: OpenNegotiation[] }> {
  const lastParty = sql<OfferParty | null>`(select ${proposal_offers.party} from ${proposal_offers} where ${proposal_offers.proposal_id} = ${proposals.id} order by ${proposal_offers.at} desc, ${proposal_offers.id} desc limit 1)`;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: proposals.id,
        leadId: proposals.lead_id,
        leadName: leads.full_name,
        codigo: properties.codigo,
        kind: proposals.kind,
        amountCents: proposals.amount_cents,
        validUntil: proposals.valid_until,
        lastParty,
      })
      .from(proposals)
      .innerJoin(leads, eq(leads.id, proposals.lead_id))
      .innerJoin(properties, eq(properties.id, proposals.property_id))
      .where(eq(proposals.status, "em_negociacao"))
      .orderBy(asc(proposals.valid_until), asc(proposals.created_at))
      .limit(OPEN_NEGOTIATIONS_SHOWN),
    db.select({ total: count() }).from(proposals).where(eq(proposals.status, "em_negociacao")),
  ]);
  return { total, items: rows };
}

/** Commissions 'a receber' due before the first day of next month (overdue ones included), or with no due date yet. */
export async function commissionsToReceive(db: Database, today: string): Promise<{ totalCents: number; items: CommissionDue[] }> {
  const [year, month] = today.split("-").map(Number);
  const nextMonth = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
  const where = and(
    isNull(deals.undone_at),
    eq(deals.commission_status, "a_receber"),
    sql`(${deals.commission_due_on} is null or ${lt(deals.commission_due_on, nextMonth)})`,
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ dealId: deals.id, leadId: deals.lead_id, leadName: leads.full_name, codigo: properties.codigo, cents: deals.commission_cents, dueOn: deals.commission_due_on })
      .from(deals)
      .innerJoin(leads, eq(leads.id, deals.lead_id))
      .innerJoin(properties, eq(properties.id, deals.property_id))
      .where(where)
      .orderBy(sql`${deals.commission_due_on} asc nulls last`, asc(deals.created_at))
      .limit(OPEN_NEGOTIATIONS_SHOWN),
    db.select({ total: sum(deals.commission_cents) }).from(deals).where(where),
  ]);
  return { totalCents: Number(total ?? 0), items: rows };
}

