import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, listing_alerts, propertiesPublic } from "~/db/schema";
import { filterConditions } from "~/features/properties/public-queries.server";
import { alertFilters } from "./alerts.server";
import { describeFilters } from "./describe";

/**
 * /crm/avise-me: the visitors' 'Avise-me' alerts as the broker sees them (issue 23, decision 025):
 * what people are waiting for, and how many available listings already fit each search. Staff
 * see the addresses as they see the leads'; the alerts are only changed by their owners (from any
 * of their e-mails) or erased by an admin in Privacidade.
 */

export const ALERTS_PAGE_SIZE = 50;
export const ALERT_STATUS_FILTERS = ["todos", "confirmados", "pendentes"] as const;
export type AlertStatusFilter = (typeof ALERT_STATUS_FILTERS)[number];

export type CrmAlertRow = {
  id: string;
  email: string;
  phone: string | null;
  search: string;
  /** The same query on /imoveis, so the broker opens what the visitor would see. */
  query: string;
  status: "pending" | "confirmed";
  created_at: string;
  confirmed_at: string | null;
  last_sent_at: string | null;
  lead: { id: string; full_name: string } | null;
  /** Available listings that fit the search today. */
  matching: number;
};

export type CrmAlertsPage = {
  status: AlertStatusFilter;
  page: number;
  pageCount: number;
  total: number;
  counts: { confirmed: number; pending: number };
  rows: CrmAlertRow[];
};

const STATUS_WHERE: Record<AlertStatusFilter, SQL | undefined> = {
  todos: undefined,
  confirmados: eq(listing_alerts.status, "confirmed"),
  pendentes: eq(listing_alerts.status, "pending"),
};

const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);

export function parseAlertsQuery(url: URL): { status: AlertStatusFilter; page: number } {
  const raw = url.searchParams.get("status") ?? "todos";
  const status = (ALERT_STATUS_FILTERS as readonly string[]).includes(raw) ? (raw as AlertStatusFilter) : "todos";
  const page = Number(url.searchParams.get("pagina") ?? "1");
  return { status, page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1 };
}

export async function loadCrmAlerts(db: Database, url: URL): Promise<CrmAlertsPage> {
  const { status, page: requested } = parseAlertsQuery(url);
  const where = STATUS_WHERE[status];
  const [byStatus, [{ total }]] = await Promise.all([
    db.select({ status: listing_alerts.status, n: count() }).from(listing_alerts).groupBy(listing_alerts.status),
    db.select({ total: count() }).from(listing_alerts).where(where),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / ALERTS_PAGE_SIZE));
  const page = Math.min(requested, pageCount);
  const rows = await db
    .select({ alert: listing_alerts, lead_name: leads.full_name })
    .from(listing_alerts)
    .leftJoin(leads, eq(leads.id, listing_alerts.lead_id))
    .where(where)
    .orderBy(desc(listing_alerts.created_at), desc(listing_alerts.id))
    .limit(ALERTS_PAGE_SIZE)
    .offset((page - 1) * ALERTS_PAGE_SIZE);
  // One count per shown alert (50 at most), each on the public list's own indexed conditions.
  const matching = await Promise.all(
    rows.map(async ({ alert }) => {
      const [{ n }] = await db.select({ n: count() }).from(propertiesPublic).where(and(filterConditions(alertFilters(alert.query))));
      return n;
    }),
  );
  const countOf = (value: string) => byStatus.find((row) => row.status === value)?.n ?? 0;
  return {
    status,
    page,
    pageCount,
    total,
    counts: { confirmed: countOf("confirmed"), pending: countOf("pending") },
    rows: rows.map(({ alert, lead_name }, index) => ({
      id: alert.id,
      email: alert.email,
      phone: alert.phone,
      search: describeFilters(alertFilters(alert.query)),
      query: alert.query,
      status: alert.status,
      created_at: alert.created_at.toISOString(),
      confirmed_at: isoOrNull(alert.confirmed_at),
      last_sent_at: isoOrNull(alert.last_sent_at),
      lead: alert.lead_id && lead_name ? { id: alert.lead_id, full_name: lead_name } : null,
      matching: matching[index],
    })),
  };
}
