import { and, asc, eq, gt, gte, ne } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties, visits } from "~/db/schema";
import { firstName } from "~/features/push/kinds";
import { isUuid } from "~/lib/ids";
import type { VisitStatus } from "./labels";

/** What the calendar files (calendar.server.ts) carry: visits and 'próximo contato' reminders, read here. */

/** A visit with what its event shows. */
export type VisitForCalendar = {
  id: string;
  scheduled_at: Date;
  status: VisitStatus;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
  lead: { id: string; full_name: string; phone: string };
  property: { codigo: string; title: string; neighborhood: string; city: string } | null;
};

/** A lead's next-contact time, as its reminder event shows it (the first name only). */
export type ReminderForCalendar = { leadId: string; firstName: string; at: Date };

const calendarColumns = {
  visit: visits,
  leadName: leads.full_name,
  leadPhone: leads.phone,
  codigo: properties.codigo,
  title: properties.title,
  neighborhood: properties.neighborhood,
  city: properties.city,
};

type CalendarRow = {
  visit: typeof visits.$inferSelect;
  leadName: string;
  leadPhone: string;
  codigo: string | null;
  title: string | null;
  neighborhood: string | null;
  city: string | null;
};

function toCalendarVisit(row: CalendarRow): VisitForCalendar {
  return {
    id: row.visit.id,
    scheduled_at: new Date(row.visit.scheduled_at),
    status: row.visit.status,
    notes: row.visit.notes,
    created_at: new Date(row.visit.created_at),
    updated_at: new Date(row.visit.updated_at),
    lead: { id: row.visit.lead_id, full_name: row.leadName, phone: row.leadPhone },
    property: row.codigo ? { codigo: row.codigo, title: row.title!, neighborhood: row.neighborhood!, city: row.city! } : null,
  };
}

export async function visitForCalendar(db: Database, id: string): Promise<VisitForCalendar | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select(calendarColumns)
    .from(visits)
    .innerJoin(leads, eq(leads.id, visits.lead_id))
    .leftJoin(properties, eq(properties.id, visits.property_id))
    .where(eq(visits.id, id))
    .limit(1);
  return row ? toCalendarVisit(row) : null;
}

/** The most a feed carries: years of a small agency's visits, and a bound on the answer's size. */
const FEED_LIMIT = 2000;

/** Every staff member's visits not cancelled, from 30 days ago on (the calendar feed). */
export async function visitsForFeed(db: Database, now = new Date()): Promise<VisitForCalendar[]> {
  const rows = await db
    .select(calendarColumns)
    .from(visits)
    .innerJoin(leads, eq(leads.id, visits.lead_id))
    .leftJoin(properties, eq(properties.id, visits.property_id))
    .where(and(ne(visits.status, "cancelada"), gte(visits.scheduled_at, new Date(now.getTime() - 30 * 86_400_000))))
    .orderBy(asc(visits.scheduled_at), asc(visits.id))
    .limit(FEED_LIMIT);
  return rows.map(toCalendarVisit);
}

/**
 * 'Próximo contato' times still to come (issue 25), for the calendar feed next to the visits. Leads
 * have no owner here, so every staff member's feed carries every lead's reminder — the first name
 * only, as on a phone's lock screen.
 */
export async function remindersForFeed(db: Database, now = new Date()): Promise<ReminderForCalendar[]> {
  const rows = await db
    .select({ id: leads.id, full_name: leads.full_name, at: leads.next_contact_at })
    .from(leads)
    .where(gt(leads.next_contact_at, now))
    .orderBy(asc(leads.next_contact_at), asc(leads.id))
    .limit(FEED_LIMIT);
  return rows.map((row) => ({ leadId: row.id, firstName: firstName(row.full_name), at: new Date(row.at!) }));
}
