import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties, visits } from "~/db/schema";
import { firstName } from "~/features/push/kinds";
import { BROKER_TIME_ZONE, brokerDay, parseBrokerDateTime } from "~/lib/format";
import { agendaColumns, type AgendaVisit, toAgendaVisit } from "./agenda.server";
import { CALENDAR_VIEWS, type CalendarView, DATE_PARAM, VIEW_PARAM } from "./calendar-labels";
import { dayHeading } from "./days";

/**
 * The agenda as a calendar (/crm/visitas?vista=dia|semana|mes&data=AAAA-MM-DD): the visits and the
 * leads' 'Próximo contato' reminders of the days shown, cut on the broker's calendar days
 * (America/Fortaleza), each visit flagged when it clashes with another (decision 031).
 */

export type CalendarVisit = AgendaVisit & { conflict: boolean };
export type CalendarReminder = { leadId: string; firstName: string; at: string; time: string };
export type CalendarDay = {
  day: string;
  /** "Hoje", "Quarta-feira"… and "25/11/2026", as the list names days. */
  label: string;
  date: string;
  /** "25": the day of the month, for the month grid. */
  dayOfMonth: string;
  /** False for the month grid's days of the previous or next month. */
  inRange: boolean;
  visits: CalendarVisit[];
  reminders: CalendarReminder[];
};
export type CalendarData = {
  view: CalendarView;
  date: string;
  title: string;
  prev: string;
  next: string;
  today: string;
  days: CalendarDay[];
  conflicts: number;
};

/**
 * Two visits clash when the same staff member has both within an hour (a visit has no end time;
 * the .ics files give it 60 minutes). `created_by` is the only column that names a person on a
 * visit: the one who scheduled it is the one who goes. Cancelled visits clash with nothing.
 */
export const CONFLICT_MINUTES = 60;
const clashSql = (other: string) => sql`exists (
  select 1 from visits ${sql.raw(other)}
  where ${sql.raw(other)}.id <> ${visits.id}
    and ${sql.raw(other)}.created_by = ${visits.created_by}
    and ${sql.raw(other)}.status <> 'cancelada'
    and ${sql.raw(other)}.scheduled_at > ${visits.scheduled_at} - make_interval(mins => ${CONFLICT_MINUTES})
    and ${sql.raw(other)}.scheduled_at < ${visits.scheduled_at} + make_interval(mins => ${CONFLICT_MINUTES})
)`;

/** A sane upper bound: six weeks of a small agency's visits never come near it. */
const CALENDAR_LIMIT = 1000;

const DAY_MS = 86_400_000;
const dayNoon = (day: string) => new Date(`${day}T12:00:00Z`);
export const addDays = (day: string, days: number) => new Date(dayNoon(day).getTime() + days * DAY_MS).toISOString().slice(0, 10);
const weekday = (day: string) => dayNoon(day).getUTCDay();
const addMonths = (day: string, months: number) => {
  const [year, month] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1 + months, 1, 12)).toISOString().slice(0, 10);
};

/** The `?vista=` and `?data=` of the address; null when either is not a real value. */
export function parseCalendarParams(params: URLSearchParams, now = new Date()): { view: CalendarView; date: string } | null {
  const view = params.get(VIEW_PARAM);
  if (!CALENDAR_VIEWS.includes(view as CalendarView)) return null;
  const date = params.get(DATE_PARAM) || brokerDay(now);
  // parseBrokerDateTime refuses 2026-02-30 and the like.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || parseBrokerDateTime(`${date}T12:00`) === null) return null;
  const year = Number(date.slice(0, 4));
  if (year < 2000 || year > 2100) return null;
  return { view: view as CalendarView, date };
}

/** The days a view shows: [first, last]. Weeks start on Sunday, as Brazilian calendars do. */
export function calendarDays(view: CalendarView, date: string): { first: string; last: string; rangeFirst: string; rangeLast: string } {
  if (view === "dia") return { first: date, last: date, rangeFirst: date, rangeLast: date };
  if (view === "semana") {
    const first = addDays(date, -weekday(date));
    return { first, last: addDays(first, 6), rangeFirst: first, rangeLast: addDays(first, 6) };
  }
  const monthFirst = `${date.slice(0, 7)}-01`;
  const monthLast = addDays(addMonths(date, 1), -1);
  return { first: addDays(monthFirst, -weekday(monthFirst)), last: addDays(monthLast, 6 - weekday(monthLast)), rangeFirst: monthFirst, rangeLast: monthLast };
}

const monthFormat = new Intl.DateTimeFormat("pt-BR", { timeZone: "UTC", month: "long", year: "numeric" });
const timeFormat = new Intl.DateTimeFormat("pt-BR", { timeZone: BROKER_TIME_ZONE, hour: "2-digit", minute: "2-digit" });
const short = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

function titleOf(view: CalendarView, date: string, first: string, last: string, now: Date): string {
  if (view === "dia") {
    const heading = dayHeading(date, now);
    return `${heading.label}, ${heading.date}`;
  }
  if (view === "semana") return `Semana de ${short(first)} a ${short(last)}/${last.slice(0, 4)}`;
  const month = monthFormat.format(dayNoon(date));
  return month.charAt(0).toUpperCase() + month.slice(1);
}

function stepOf(view: CalendarView, date: string, direction: 1 | -1): string {
  if (view === "dia") return addDays(date, direction);
  if (view === "semana") return addDays(date, 7 * direction);
  return addMonths(date, direction);
}

/** The first instant of a broker's calendar day. */
const startOf = (day: string) => parseBrokerDateTime(`${day}T00:00`)!;

export async function loadCalendar(db: Database, { view, date }: { view: CalendarView; date: string }, now = new Date()): Promise<CalendarData> {
  const { first, last, rangeFirst, rangeLast } = calendarDays(view, date);
  const from = startOf(first);
  const until = startOf(addDays(last, 1));
  const [visitRows, reminderRows] = await Promise.all([
    db
      .select({ ...agendaColumns, conflict: sql<boolean>`(${visits.status} <> 'cancelada' and ${clashSql("other")})` })
      .from(visits)
      .innerJoin(leads, eq(leads.id, visits.lead_id))
      .leftJoin(properties, eq(properties.id, visits.property_id))
      .where(and(gte(visits.scheduled_at, from), lt(visits.scheduled_at, until)))
      .orderBy(asc(visits.scheduled_at), asc(visits.id))
      .limit(CALENDAR_LIMIT),
    db
      .select({ id: leads.id, full_name: leads.full_name, at: leads.next_contact_at })
      .from(leads)
      .where(and(gte(leads.next_contact_at, from), lt(leads.next_contact_at, until)))
      .orderBy(asc(leads.next_contact_at), asc(leads.id))
      .limit(CALENDAR_LIMIT),
  ]);

  const days: CalendarDay[] = [];
  const byDay = new Map<string, CalendarDay>();
  for (let day = first; day <= last; day = addDays(day, 1)) {
    const entry: CalendarDay = { day, ...dayHeading(day, now), dayOfMonth: String(Number(day.slice(8, 10))), inRange: day >= rangeFirst && day <= rangeLast, visits: [], reminders: [] };
    days.push(entry);
    byDay.set(day, entry);
  }
  let conflicts = 0;
  for (const row of visitRows) {
    const visit = { ...toAgendaVisit(row, now), conflict: Boolean(row.conflict) };
    if (visit.conflict) conflicts += 1;
    byDay.get(brokerDay(visit.scheduled_at))?.visits.push(visit);
  }
  for (const row of reminderRows) {
    const at = new Date(row.at!);
    byDay.get(brokerDay(at))?.reminders.push({ leadId: row.id, firstName: firstName(row.full_name), at: at.toISOString(), time: timeFormat.format(at) });
  }
  return {
    view,
    date,
    title: titleOf(view, date, first, last, now),
    prev: stepOf(view, date, -1),
    next: stepOf(view, date, 1),
    today: brokerDay(now),
    days,
    conflicts,
  };
}

/**
 * The other visits a visit clashes with (same staff member, less than an hour apart), for the
 * warning in the schedule / reschedule answer: their times, soonest first.
 */
export async function clashesOf(db: Database, visitId: string): Promise<string[]> {
  const result = await db.execute(sql`
    select other.scheduled_at from visits me join visits other
      on other.id <> me.id and other.created_by = me.created_by and other.status <> 'cancelada'
     and other.scheduled_at > me.scheduled_at - make_interval(mins => ${CONFLICT_MINUTES})
     and other.scheduled_at < me.scheduled_at + make_interval(mins => ${CONFLICT_MINUTES})
    where me.id = ${visitId} and me.status <> 'cancelada'
    order by other.scheduled_at limit 5`);
  // PGlite answers { rows }, node-postgres too; keep both shapes readable.
  const list = ((result as { rows?: { scheduled_at: string | Date }[] }).rows ?? (result as unknown as { scheduled_at: string | Date }[]));
  return list.map((row) => timeFormat.format(new Date(row.scheduled_at)));
}
