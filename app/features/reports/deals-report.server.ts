import { sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import type { PropertyPurpose } from "~/db/values";
import type { CommissionStatus } from "~/db/values-deals";
import { brokerDay } from "~/lib/format";
import { type DayRange, type Period, rangeInstants } from "./period";

/**
 * The deals' figures of /crm/relatorios (issue 24, item 4; decision 026, "Reports from deals"):
 * deals closed, the average discount from the asking price, proposals made and accepted, the
 * time from first contact to the deal, commissions received and receivable, and the 'Negócios
 * fechados' table. Deals count by their closing day (a calendar day in the broker's zone) and
 * only while standing (`undone_at is null`); proposals by the instant they were made.
 */

type Compared = { current: number | null; previous: number | null };

export type CommissionReceivable = {
  /** Reais owed on standing deals whose commission is 'a_receber', whatever their closing day. */
  amount: number;
  deals: number;
  /** Of those, the ones whose due day is before today. */
  overdue: number;
  overdueAmount: number;
};

export type DealSummary = {
  closedDeals: Compared;
  /** Mean of each deal's 1 − final value / asking price (a fraction; negative when above asking). */
  averageDiscount: Compared;
  proposals: Compared;
  proposalsAccepted: Compared;
  acceptanceRate: Compared;
  /** Median whole calendar days from the lead's creation to the closing day. */
  medianDaysToDeal: Compared;
  /** Commissions received in the period (by payment day), reais; null for who may not see commissions. */
  commissionReceived: Compared | null;
  commissionReceivable: CommissionReceivable | null;
};

export type DealRow = {
  closedOn: string;
  codigo: string;
  title: string;
  leadName: string;
  kind: PropertyPurpose;
  /** The listing's price (reais); null when it has none (0: "consulte"). */
  askingPrice: number | null;
  finalValue: number;
  discount: number | null;
  commission: number | null;
  commissionStatus: CommissionStatus | null;
};

type Row = Record<string, unknown>;
async function rows<T = Row>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

const closedIn = (range: DayRange) => sql`d.undone_at is null and d.closed_on between ${range.from}::date and ${range.to}::date`;

/**
 * The asking price is the listing's price as it stands (decision 026): the history keeps only
 * price drops, not rises, so the price at the first offer cannot be rebuilt; a listing rarely
 * changes price once a deal closes on it. A listing with no price (0) has no discount.
 */
const discountOf = sql`case when p.price > 0 then 1 - (d.final_value_cents::numeric / 100) / p.price end`;

async function dealFigures(db: Database, range: DayRange) {
  const [row] = await rows(
    db,
    sql`select count(*)::int as deals,
          (avg(${discountOf}))::float8 as discount,
          (percentile_cont(0.5) within group (order by greatest(0, d.closed_on - (l.created_at at time zone 'America/Fortaleza')::date)))::float8 as days
        from deals d join properties p on p.id = d.property_id join leads l on l.id = d.lead_id
        where ${closedIn(range)}`,
  );
  const { start, end } = rangeInstants(range);
  const [made] = await rows(
    db,
    sql`select count(*)::int as made, count(*) filter (where status = 'aceita')::int as accepted from proposals
        where created_at >= ${start.toISOString()}::timestamptz and created_at < ${end.toISOString()}::timestamptz`,
  );
  return {
    deals: num(row.deals),
    discount: numOrNull(row.discount),
    days: numOrNull(row.days),
    proposals: num(made.made),
    accepted: num(made.accepted),
  };
}

async function commissionReceivedIn(db: Database, range: DayRange): Promise<number> {
  const [row] = await rows(
    db,
    sql`select coalesce(sum(commission_cents), 0)::bigint as n from deals
        where undone_at is null and commission_status = 'recebida' and commission_paid_on between ${range.from}::date and ${range.to}::date`,
  );
  return num(row.n) / 100;
}

async function commissionReceivable(db: Database, today: string): Promise<CommissionReceivable> {
  const [row] = await rows(
    db,
    sql`select coalesce(sum(commission_cents), 0)::bigint as amount, count(*)::int as deals,
          count(*) filter (where commission_due_on < ${today}::date)::int as overdue,
          coalesce(sum(commission_cents) filter (where commission_due_on < ${today}::date), 0)::bigint as overdue_amount
        from deals where undone_at is null and commission_status = 'a_receber'`,
  );
  return { amount: num(row.amount) / 100, deals: num(row.deals), overdue: num(row.overdue), overdueAmount: num(row.overdue_amount) / 100 };
}

async function dealRows(db: Database, range: DayRange, commissions: boolean): Promise<DealRow[]> {
  const found = await rows<{
    closed_on: string;
    codigo: string;
    title: string;
    full_name: string;
    kind: PropertyPurpose;
    price: string | number;
    final_value_cents: string | number;
    discount: string | number | null;
    commission_cents: string | number;
    commission_status: CommissionStatus;
  }>(
    db,
    sql`select to_char(d.closed_on, 'YYYY-MM-DD') as closed_on, p.codigo, p.title, l.full_name, d.kind, p.price, d.final_value_cents,
          (${discountOf})::float8 as discount, d.commission_cents, d.commission_status
        from deals d join properties p on p.id = d.property_id join leads l on l.id = d.lead_id
        where ${closedIn(range)}
        order by d.closed_on, p.codigo`,
  );
  return found.map((row) => ({
    closedOn: row.closed_on,
    codigo: row.codigo,
    title: row.title,
    leadName: row.full_name,
    kind: row.kind,
    askingPrice: num(row.price) > 0 ? num(row.price) : null,
    finalValue: num(row.final_value_cents) / 100,
    discount: numOrNull(row.discount),
    commission: commissions ? num(row.commission_cents) / 100 : null,
    commissionStatus: commissions ? row.commission_status : null,
  }));
}

const compared = <T>(current: T, previous: T, pick: (value: T) => number | null): Compared => ({ current: pick(current), previous: pick(previous) });

/** `commissions`: whether the reader may see commissions; `now` fixes "today" (tests). */
export async function loadDealReport(db: Database, period: Period, options: { commissions?: boolean; now?: Date } = {}): Promise<{ summary: DealSummary; rows: DealRow[] }> {
  const commissions = options.commissions ?? false;
  const [current, previous] = [await dealFigures(db, period), await dealFigures(db, period.previous)];
  const rate = (figures: typeof current) => (figures.proposals === 0 ? null : figures.accepted / figures.proposals);
  return {
    summary: {
      closedDeals: compared(current, previous, (f) => f.deals),
      averageDiscount: compared(current, previous, (f) => f.discount),
      proposals: compared(current, previous, (f) => f.proposals),
      proposalsAccepted: compared(current, previous, (f) => f.accepted),
      acceptanceRate: compared(current, previous, rate),
      medianDaysToDeal: compared(current, previous, (f) => f.days),
      commissionReceived: commissions ? { current: await commissionReceivedIn(db, period), previous: await commissionReceivedIn(db, period.previous) } : null,
      commissionReceivable: commissions ? await commissionReceivable(db, brokerDay(options.now ?? new Date())) : null,
    },
    rows: await dealRows(db, period, commissions),
  };
}
