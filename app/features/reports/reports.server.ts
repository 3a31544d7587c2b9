import { sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { LEAD_ORIGINS, type LeadOrigin, type PropertyPurpose, type PropertyStatus } from "~/db/values";
import { portalDisplayName, portalKey } from "~/features/portals/portal-names";
import { type DealRow, type DealSummary, loadDealReport } from "./deals-report.server";
import { type LostReasonRow, lostReasonCounts, lostReasonRows } from "./lost-reasons.server";
import { addDays, type DayRange, type Period, rangeInstants } from "./period";
import { mostViewed, totalViews, totalWhatsapp } from "./views-report.server";

/**
 * The figures of /crm/relatorios (issue 12), each for the period and for the previous period of
 * the same length. Leads count by their creation; the funnel, conversion and response times come
 * from the recorded lead timeline (lead_events, migration 0005); sales and rentals from the
 * property status history (property_status_events, migration 0006); views from the daily
 * counters (property_views); WhatsApp contacts from the taps the /whatsapp redirect recorded
 * (whatsapp_clicks, decision 028). Nothing personal is read: no name, phone, e-mail or message.
 */

export type Compared = { current: number | null; previous: number | null };

export type FunnelStage = "recebidos" | "em_atendimento" | "convertido" | "perdido";
export const FUNNEL_STAGES: FunnelStage[] = ["recebidos", "em_atendimento", "convertido", "perdido"];

export type SaleRow = {
  codigo: string;
  title: string;
  purpose: PropertyPurpose;
  status: Extract<PropertyStatus, "vendido" | "alugado">;
  at: string;
  price: number;
  /** Issue 24: the final value of the listing's standing deal (reais), when it closed through one. */
  finalValue: number | null;
  daysOnMarket: number;
};

export type OriginRow = { origin: LeadOrigin; portal: string | null; current: number; previous: number };

export type ReportData = {
  summary: {
    leads: Compared;
    conversionRate: Compared;
    medianSecondsToConversion: Compared;
    medianSecondsToFirstResponse: Compared;
    sold: Compared;
    rented: Compared;
    soldValue: Compared;
    /** Issue 24: commissions of the deals closed in the period (reais); null for who may not see them. */
    commission: Compared | null;
    views: Compared;
    /** Taps on the public site's WhatsApp buttons (decision 028). */
    whatsapp: Compared;
  } & DealSummary;
  /** Every origin; the portals' leads one row per portal (`portal`: its name, null when none was sent). */
  origins: OriginRow[];
  funnel: { stage: FunnelStage; current: number; previous: number }[];
  /** Consecutive 7-day blocks from the period's first day (the last may be shorter). */
  weekly: { from: string; to: string; current: number; previous: number }[];
  topProperties: { codigo: string; title: string; current: number; previous: number }[];
  sales: SaleRow[];
  mostViewed: { codigo: string; title: string; views: number; leads: number; whatsapp: number; previousViews: number }[];
  /** Issue 24, item 3: the leads lost in each period by reason (null: lost before reasons were asked). */
  lostReasons: LostReasonRow[];
  /** Issue 24, item 4: the standing deals closed in the period (commission fields null for who may not see them). */
  deals: DealRow[];
};

export type { LostReasonRow } from "./lost-reasons.server";
export type { DealRow } from "./deals-report.server";

/** Rows the ranked tables keep. */
export const TOP_LIMIT = 10;
export { MOST_VIEWED_LIMIT } from "./views-report.server";

type Row = Record<string, unknown>;
async function rows<T = Row>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** Leads of a range (by creation) as a SQL condition on alias l. */
function leadsIn(range: DayRange): SQL {
  const { start, end } = rangeInstants(range);
  return sql`l.created_at >= ${start.toISOString()}::timestamptz and l.created_at < ${end.toISOString()}::timestamptz`;
}

/**
 * The cohort of a range (leads by creation) through the funnel, and its median times. A lead
 * reached a status if it has it now or its timeline recorded it (creation or change; leads from
 * before the timeline count by their current status only). One pass over the cohort's history
 * (lead_events_history_idx), grouped per lead — not a lookup per lead and status (issue 26: a
 * decade's cohort is 60,000 leads). A converted (or first moved) lead with no timeline row has
 * an unknown time, not zero.
 */
async function leadFigures(db: Database, range: DayRange) {
  const [row] = await rows(
    db,
    sql`
      with cohort as (
        select l.id, l.status, l.created_at from leads l where ${leadsIn(range)}
      ), history as (
        select e.lead_id,
          bool_or(e.to_status = 'em_atendimento') as em_atendimento,
          bool_or(e.to_status = 'convertido') as convertido,
          bool_or(e.to_status = 'perdido') as perdido,
          min(e.at) filter (where e.to_status = 'convertido') as converted_at,
          min(e.at) filter (where e.kind = 'status') as first_change_at
        from lead_events e join cohort c on c.id = e.lead_id
        where e.kind in ('created', 'status')
        group by e.lead_id
      )
      select
        count(*)::int as leads,
        count(*) filter (where c.status in ('em_atendimento', 'convertido') or h.em_atendimento or h.convertido)::int as em_atendimento,
        count(*) filter (where c.status = 'convertido' or h.convertido)::int as convertido,
        count(*) filter (where c.status = 'perdido' or h.perdido)::int as perdido,
        (percentile_cont(0.5) within group (order by extract(epoch from (h.converted_at - c.created_at))) filter (where h.converted_at is not null))::float8 as to_conversion,
        (percentile_cont(0.5) within group (order by extract(epoch from (h.first_change_at - c.created_at))) filter (where h.first_change_at is not null))::float8 as to_first_change
      from cohort c left join history h on h.lead_id = c.id`,
  );
  const times = row;
  const leads = num(row.leads);
  return {
    leads,
    funnel: {
      recebidos: leads,
      em_atendimento: num(row.em_atendimento),
      convertido: num(row.convertido),
      perdido: num(row.perdido),
    } satisfies Record<FunnelStage, number>,
    conversionRate: leads === 0 ? null : num(row.convertido) / leads,
    medianToConversion: numOrNull(times?.to_conversion),
    medianToFirstChange: numOrNull(times?.to_first_change),
  };
}

type OriginCount = { origin: LeadOrigin; portal_name: string | null; n: number };

async function originCounts(db: Database, range: DayRange): Promise<OriginCount[]> {
  return rows<OriginCount>(db, sql`select l.origin, l.portal_name, count(*)::int as n from leads l where ${leadsIn(range)} group by l.origin, l.portal_name`);
}

/**
 * Each origin in its usual order, then the portals one by one (most leads first): a portal's
 * spellings count as one (features/portals/portal-names.ts). With no portal lead in either
 * period, one 'Portal' row with zeros, so every origin is still listed.
 */
function originRows(current: OriginCount[], previous: OriginCount[]): OriginRow[] {
  const byKey = new Map<string, OriginRow>(LEAD_ORIGINS.filter((origin) => origin !== "portal").map((origin) => [origin, { origin, portal: null, current: 0, previous: 0 }]));
  const portals = new Map<string, OriginRow>();
  const add = (list: OriginCount[], which: "current" | "previous") => {
    for (const row of list) {
      const portal = row.origin === "portal" && row.portal_name ? portalDisplayName(row.portal_name) : null;
      const target = row.origin === "portal" ? portals : byKey;
      const key = row.origin === "portal" ? portalKey(portal ?? "") : row.origin;
      const entry = target.get(key) ?? { origin: row.origin, portal, current: 0, previous: 0 };
      entry[which] += num(row.n);
      target.set(key, entry);
    }
  };
  add(current, "current");
  add(previous, "previous");
  const portalRows = [...portals.values()].sort((a, b) => b.current - a.current || b.previous - a.previous || (a.portal ?? "").localeCompare(b.portal ?? "", "pt-BR"));
  return [...byKey.values(), ...(portalRows.length ? portalRows : [{ origin: "portal" as const, portal: null, current: 0, previous: 0 }])];
}

/** Leads per broker day of a range. */
async function dailyLeads(db: Database, range: DayRange): Promise<Map<string, number>> {
  const found = await rows<{ day: string; n: number }>(
    db,
    sql`select to_char(l.created_at at time zone 'America/Fortaleza', 'YYYY-MM-DD') as day, count(*)::int as n
        from leads l where ${leadsIn(range)} group by 1`,
  );
  return new Map(found.map((row) => [row.day, num(row.n)]));
}

function weekBlocks(range: DayRange, days: number): DayRange[] {
  const blocks: DayRange[] = [];
  for (let offset = 0; offset < days; offset += 7) {
    const from = addDays(range.from, offset);
    const last = addDays(range.from, Math.min(offset + 6, days - 1));
    blocks.push({ from, to: last });
  }
  return blocks;
}

const sumDays = (daily: Map<string, number>, block: DayRange) => {
  let total = 0;
  for (let day = block.from; day <= block.to; day = addDays(day, 1)) total += daily.get(day) ?? 0;
  return total;
};

async function propertyLeadCounts(db: Database, range: DayRange, only?: string[]) {
  return rows<{ property_id: string; codigo: string; title: string; n: number }>(
    db,
    sql`
      select p.id as property_id, p.codigo, p.title, count(*)::int as n
      from leads l join properties p on p.id = l.property_id
      where ${leadsIn(range)} ${only ? sql`and p.id in (${sql.join(only.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``}
      group by p.id, p.codigo, p.title
      order by n desc, p.codigo
      ${only ? sql`` : sql`limit ${TOP_LIMIT}`}`,
  );
}

/** Status changes to vendido/alugado in a range (creation rows are not sales: nothing changed). */
async function salesIn(db: Database, range: DayRange): Promise<SaleRow[]> {
  const { start, end } = rangeInstants(range);
  const found = await rows<{ codigo: string; title: string; purpose: PropertyPurpose; to_status: SaleRow["status"]; at: Date | string; price: number; deal_cents: number | string | null; days: number }>(
    db,
    sql`
      select p.codigo, p.title, p.purpose, e.to_status, e.at, p.price::float8 as price,
        (select d.final_value_cents from deals d where d.property_id = p.id and d.undone_at is null order by d.created_at desc limit 1) as deal_cents,
        greatest(0, floor(extract(epoch from (e.at - p.created_at)) / 86400))::int as days
      from property_status_events e join properties p on p.id = e.property_id
      where e.kind in ('status', 'backfill') and e.to_status in ('vendido', 'alugado')
        and e.at >= ${start.toISOString()}::timestamptz and e.at < ${end.toISOString()}::timestamptz
      order by e.at, p.codigo`,
  );
  return found.map((row) => ({
    codigo: row.codigo,
    title: row.title,
    purpose: row.purpose,
    status: row.to_status,
    at: new Date(row.at).toISOString(),
    price: num(row.price),
    finalValue: row.deal_cents === null ? null : num(row.deal_cents) / 100,
    daysOnMarket: num(row.days),
  }));
}

/** Commissions (reais) of the standing deals closed in a range of days (issue 24). */
async function commissionIn(db: Database, range: DayRange): Promise<number> {
  const [row] = await rows(db, sql`select coalesce(sum(commission_cents), 0)::bigint as n from deals where undone_at is null and closed_on between ${range.from}::date and ${range.to}::date`);
  return num(row.n) / 100;
}

/** `commissions`: whether the reader may see commissions (admins; corretores when the settings say so); `now` fixes "today" (tests). */
export function loadReport(db: Database, period: Period, options: { commissions?: boolean; now?: Date } = {}): Promise<ReportData> {
  if (options.now) return computeReport(db, period, options);
  // Staff asking for the same report at the same time share one computation (issue 26: a decade's
  // report reads 60,000 leads; ten people opening it together need not read them ten times). Only
  // while it runs: the next request computes afresh, so nothing is served stale.
  let running = reportsRunning.get(db);
  if (!running) reportsRunning.set(db, (running = new Map()));
  const key = `${period.from}|${period.to}|${period.previous.from}|${options.commissions ? 1 : 0}`;
  const shared = running.get(key);
  if (shared) return shared;
  const started = computeReport(db, period, options).finally(() => running.delete(key));
  running.set(key, started);
  return started;
}

const reportsRunning = new WeakMap<Database, Map<string, Promise<ReportData>>>();

async function computeReport(db: Database, period: Period, options: { commissions?: boolean; now?: Date }): Promise<ReportData> {
  const [current, previous] = [await leadFigures(db, period), await leadFigures(db, period.previous)];
  const [origins, previousOrigins] = [await originCounts(db, period), await originCounts(db, period.previous)];
  const [daily, previousDaily] = [await dailyLeads(db, period), await dailyLeads(db, period.previous)];
  const top = await propertyLeadCounts(db, period);
  const topPrevious = top.length ? await propertyLeadCounts(db, period.previous, top.map((row) => row.property_id)) : [];
  const sales = await salesIn(db, period);
  const previousSales = await salesIn(db, period.previous);
  const [views, previousViews] = [await totalViews(db, period), await totalViews(db, period.previous)];
  const [whatsapp, previousWhatsapp] = [await totalWhatsapp(db, period), await totalWhatsapp(db, period.previous)];
  const viewed = await mostViewed(db, period, leadsIn);
  const [lost, previousLost] = [await lostReasonCounts(db, period), await lostReasonCounts(db, period.previous)];
  const dealReport = await loadDealReport(db, period, options);

  const count = (list: SaleRow[], status: SaleRow["status"]) => list.filter((sale) => sale.status === status).length;
  // Issue 24: the price a deal closed at; the asking price only for a sale marked by hand.
  const soldValue = (list: SaleRow[]) => list.filter((sale) => sale.status === "vendido").reduce((sum, sale) => sum + (sale.finalValue ?? sale.price), 0);
  const commission = options.commissions ? { current: await commissionIn(db, period), previous: await commissionIn(db, period.previous) } : null;
  const currentBlocks = weekBlocks(period, period.days);
  const previousBlocks = weekBlocks(period.previous, period.days);

  return {
    summary: {
      leads: { current: current.leads, previous: previous.leads },
      conversionRate: { current: current.conversionRate, previous: previous.conversionRate },
      medianSecondsToConversion: { current: current.medianToConversion, previous: previous.medianToConversion },
      medianSecondsToFirstResponse: { current: current.medianToFirstChange, previous: previous.medianToFirstChange },
      sold: { current: count(sales, "vendido"), previous: count(previousSales, "vendido") },
      rented: { current: count(sales, "alugado"), previous: count(previousSales, "alugado") },
      soldValue: { current: soldValue(sales), previous: soldValue(previousSales) },
      commission,
      views: { current: views, previous: previousViews },
      whatsapp: { current: whatsapp, previous: previousWhatsapp },
      ...dealReport.summary,
    },
    origins: originRows(origins, previousOrigins),
    funnel: FUNNEL_STAGES.map((stage) => ({ stage, current: current.funnel[stage], previous: previous.funnel[stage] })),
    weekly: currentBlocks.map((block, index) => ({
      ...block,
      current: sumDays(daily, block),
      previous: sumDays(previousDaily, previousBlocks[index]),
    })),
    topProperties: top.map((row) => ({
      codigo: row.codigo,
      title: row.title,
      current: num(row.n),
      previous: num(topPrevious.find((other) => other.property_id === row.property_id)?.n),
    })),
    sales,
    mostViewed: viewed,
    lostReasons: lostReasonRows(lost, previousLost),
    deals: dealReport.rows,
  };
}
