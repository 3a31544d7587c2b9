import { and, asc, count, desc, eq, gte, isNotNull, lt } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties, visits } from "~/db/schema";
import type { LeadStatus } from "~/db/values";
import { endOfBrokerDay } from "~/lib/format";

/**
 * The dashboard's working-day lists (issue 11): whom to call today, who has waited too long for a
 * first answer, the next visits and the newest leads. Each list is a few rows read by index
 * (leads_next_contact_idx, leads_status_idx, visits_scheduled_at_idx, leads_created_at_idx) with
 * its total beside it, so the dashboard costs the same with ten leads or a hundred thousand.
 * Only what the lists show leaves the server: never a lead's e-mail or message here.
 */

/** Rows each list shows; its total says how many there are in all. */
export const DASHBOARD_LIST_LIMIT = 5;

/** A lead not yet attended after this long is overdue for a first answer. */
export const FIRST_ANSWER_HOURS = 24;

export type DashboardLead = {
  id: string;
  full_name: string;
  phone: string;
  status: LeadStatus;
  created_at: string;
  next_contact_at: string | null;
};

export type DashboardVisit = {
  id: string;
  scheduled_at: string;
  lead: { id: string; full_name: string };
  property: { id: string; codigo: string; title: string } | null;
};

export type DashboardList<T> = { total: number; items: T[] };

export type WorkingDay = {
  dueToday: DashboardList<DashboardLead>;
  unattended: DashboardList<DashboardLead>;
  nextVisits: DashboardList<DashboardVisit>;
  latestLeads: DashboardLead[];
};

const leadColumns = {
  id: leads.id,
  full_name: leads.full_name,
  phone: leads.phone,
  status: leads.status,
  created_at: leads.created_at,
  next_contact_at: leads.next_contact_at,
};

function toLead(row: { id: string; full_name: string; phone: string; status: LeadStatus; created_at: Date | string; next_contact_at: Date | string | null }): DashboardLead {
  return {
    ...row,
    created_at: new Date(row.created_at).toISOString(),
    next_contact_at: row.next_contact_at ? new Date(row.next_contact_at).toISOString() : null,
  };
}

/**
 * `now` decides "today" in the broker's time zone (America/Fortaleza): at 23:30 there a contact
 * due at 23:50 is today's and one at 00:10 is tomorrow's, although the server's UTC date has
 * already turned.
 */
export async function getWorkingDay(db: Database, now = new Date(), limit = DASHBOARD_LIST_LIMIT): Promise<WorkingDay> {
  // 'Para hoje': due before the broker's day ends, overdue ones included, soonest first.
  const due = and(isNotNull(leads.next_contact_at), lt(leads.next_contact_at, endOfBrokerDay(now)));
  // Still 'novo' after 24 h: the longest waiting first.
  const unattended = and(eq(leads.status, "novo"), lt(leads.created_at, new Date(now.getTime() - FIRST_ANSWER_HOURS * 3_600_000)));
  const upcoming = and(eq(visits.status, "agendada"), gte(visits.scheduled_at, now));

  const [dueRows, [dueTotal], unattendedRows, [unattendedTotal], visitRows, [visitTotal], latestRows] = await Promise.all([
    db.select(leadColumns).from(leads).where(due).orderBy(asc(leads.next_contact_at), asc(leads.id)).limit(limit),
    db.select({ value: count() }).from(leads).where(due),
    db.select(leadColumns).from(leads).where(unattended).orderBy(asc(leads.created_at), asc(leads.id)).limit(limit),
    db.select({ value: count() }).from(leads).where(unattended),
    db
      .select({
        id: visits.id,
        scheduled_at: visits.scheduled_at,
        leadId: leads.id,
        leadName: leads.full_name,
        propertyId: properties.id,
        propertyCodigo: properties.codigo,
        propertyTitle: properties.title,
      })
      .from(visits)
      .innerJoin(leads, eq(leads.id, visits.lead_id))
      .leftJoin(properties, eq(properties.id, visits.property_id))
      .where(upcoming)
      .orderBy(asc(visits.scheduled_at), asc(visits.id))
      .limit(limit),
    db.select({ value: count() }).from(visits).where(upcoming),
    db.select(leadColumns).from(leads).orderBy(desc(leads.created_at), desc(leads.id)).limit(limit),
  ]);

  return {
    dueToday: { total: dueTotal.value, items: dueRows.map(toLead) },
    unattended: { total: unattendedTotal.value, items: unattendedRows.map(toLead) },
    nextVisits: {
      total: visitTotal.value,
      items: visitRows.map((row) => ({
        id: row.id,
        scheduled_at: new Date(row.scheduled_at).toISOString(),
        lead: { id: row.leadId, full_name: row.leadName },
        property: row.propertyId ? { id: row.propertyId, codigo: row.propertyCodigo!, title: row.propertyTitle! } : null,
      })),
    },
    latestLeads: latestRows.map(toLead),
  };
}
