import { count, eq, gte } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties } from "~/db/schema";
import { startOfMonthInBrokerZone } from "~/lib/format";

export type DashboardCounters = {
  totalProperties: number;
  totalLeads: number;
  convertedLeads: number;
  newLeadsThisMonth: number;
};

/**
 * The dashboard's four exact counts (spec §7), one query each. "This month" starts at midnight
 * in the broker's time zone, not the server's.
 */
export async function getDashboardCounters(db: Database, now = new Date()): Promise<DashboardCounters> {
  const [[allProperties], [allLeads], [converted], [thisMonth]] = await Promise.all([
    db.select({ value: count() }).from(properties),
    db.select({ value: count() }).from(leads),
    db.select({ value: count() }).from(leads).where(eq(leads.status, "convertido")),
    db.select({ value: count() }).from(leads).where(gte(leads.created_at, startOfMonthInBrokerZone(now))),
  ]);
  return {
    totalProperties: allProperties.value,
    totalLeads: allLeads.value,
    convertedLeads: converted.value,
    newLeadsThisMonth: thisMonth.value,
  };
}

/** Leads still waiting for a first answer (the number beside "Leads" in the sidebar). */
export async function countNewLeads(db: Database): Promise<number> {
  const [row] = await db.select({ value: count() }).from(leads).where(eq(leads.status, "novo"));
  return row.value;
}
