import { crmLeadFields } from "~/features/leads/crm.server";
import { and, asc, desc, eq, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { lead_events, lead_matches_sent, lead_profiles, leads, outbox, properties, visits } from "~/db/schema";
import { profileSummary } from "~/features/matching/reasons";
import { type AlertSubscriber, type PersonAlert, personAlerts } from "~/features/alerts/privacy.server";
import { type PersonProposal, personProposals } from "~/features/deals/privacy.server";
import type { LeadInterest, LeadOrigin, LeadStatus, PropertyType } from "~/db/values";
import { isUuid } from "~/lib/ids";
import { ANONYMIZED, isAnonymized } from "./markers";
import { personMailIds } from "./person-mail.server";
import type { PersonQuery } from "./schema";

/**
 * "The person" a privacy request is about: the leads that share a phone (its digits) or an
 * e-mail (any case) with the lead the admin opened, and, in turn, with those leads — someone who
 * left the same phone with two e-mails is one person. Matching uses the expressions of
 * leads_phone_digits_idx and leads_email_lower_idx (migration 0005). An anonymised lead matches
 * nothing: every anonymised lead carries the same marker phone.
 */

/** At most this many leads per person: a shared office phone must not sweep in half the CRM. */
export const PERSON_MAX_LEADS = 200;

const digitsOf = (phone: string) => phone.replace(/\D/g, "");
const phoneDigitsSql = sql`regexp_replace(${leads.phone}, '\\D', '', 'g')`;

/** The newest lead matching a search, not anonymised, or null. */
export async function findAnchorLead(db: Database, query: PersonQuery): Promise<string | null> {
  const where =
    query.kind === "email"
      ? and(isNotNull(leads.email), sql`lower(${leads.email}) = ${query.email}`)
      : inArray(phoneDigitsSql, query.digits);
  const [row] = await db
    .select({ id: leads.id })
    .from(leads)
    .where(and(where, ne(leads.phone, ANONYMIZED.phone)))
    .orderBy(desc(leads.created_at), desc(leads.id))
    .limit(1);
  return row?.id ?? null;
}

/** The ids of the person's leads, starting from one lead; [] when that lead does not exist. */
export async function personLeadIds(db: Database, anchorId: string): Promise<string[]> {
  if (!isUuid(anchorId)) return [];
  const [anchor] = await db.select({ id: leads.id, full_name: leads.full_name, phone: leads.phone, email: leads.email }).from(leads).where(eq(leads.id, anchorId));
  if (!anchor) return [];
  if (isAnonymized(anchor)) return [anchor.id];
  const found = new Map<string, { phone: string; email: string | null }>([[anchor.id, anchor]]);
  const phones = new Set<string>();
  const emails = new Set<string>();
  // Widen until nothing new turns up (a few rounds in practice), bounded by PERSON_MAX_LEADS.
  for (let round = 0; round < 10; round += 1) {
    const before = phones.size + emails.size;
    for (const lead of found.values()) {
      const digits = digitsOf(lead.phone);
      if (digits && digits !== ANONYMIZED.phone) phones.add(digits);
      if (lead.email?.trim()) emails.add(lead.email.trim().toLowerCase());
    }
    if (phones.size + emails.size === before && round > 0) break;
    const rows = await db
      .select({ id: leads.id, phone: leads.phone, email: leads.email })
      .from(leads)
      .where(
        and(
          or(
            phones.size ? inArray(phoneDigitsSql, [...phones]) : sql`false`,
            emails.size ? and(isNotNull(leads.email), inArray(sql`lower(${leads.email})`, [...emails])) : sql`false`,
          ),
          ne(leads.phone, ANONYMIZED.phone),
        ),
      )
      .orderBy(asc(leads.created_at), asc(leads.id))
      .limit(PERSON_MAX_LEADS);
    const sizeBefore = found.size;
    for (const row of rows) found.set(row.id, row);
    if (found.size === sizeBefore) break;
    if (found.size >= PERSON_MAX_LEADS) break;
  }
  return [...found.keys()].slice(0, PERSON_MAX_LEADS);
}

export type PersonLead = {
  id: string;
  full_name: string;
  phone: string;
  email: string | null;
  interest_type: LeadInterest;
  property_type: PropertyType | null;
  origin: LeadOrigin;
  status: LeadStatus;
  notes: string | null;
  created_at: string;
  next_contact_at: string | null;
  property: { codigo: string; title: string } | null;
  portal_name: string | null;
  portal_temperature: string | null;
  /** Issue 24: why the lead was lost, and the broker's note about it (personal text). */
  lost_reason: string | null;
  lost_note: string | null;
  lost_at: string | null;
  /** The booking form's preferred days and periods (issue 25). */
  visit_preferences: { day: string; period?: string }[] | null;
  anonymized: boolean;
};

export type PersonEvent = {
  id: string;
  lead_id: string;
  kind: string;
  at: string;
  actor_name: string | null;
  from_status: string | null;
  to_status: string | null;
  body: string | null;
  next_contact_at: string | null;
  lost_reason: string | null;
};

export type PersonVisit = {
  id: string;
  lead_id: string;
  scheduled_at: string;
  status: string;
  notes: string | null;
  property: { codigo: string; title: string } | null;
  created_by_name: string | null;
  created_at: string;
};

export type PersonEmail = {
  id: string;
  /** The lead it is about; null for a message found by the person's e-mail or phone in it. */
  lead_id: string | null;
  kind: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: string;
  created_at: string;
  sent_at: string | null;
};

/** Everything held about one person: what the screen lists and the export contains. */
export type PersonData = {
  anchorId: string;
  leads: PersonLead[];
  events: PersonEvent[];
  visits: PersonVisit[];
  emails: PersonEmail[];
  /** Issue 23: what the person looks for (perfis de busca) and the listings sent to them. */
  profiles: { id: string; lead_id: string; summary: string; created_at: string; updated_at: string }[];
  matchesSent: { id: string; lead_id: string; property: { codigo: string; title: string }; channel: string; sent_at: string; actor_name: string | null }[];
  /** Issue 23, item 6: the person's 'Avise-me' alerts (features/alerts/privacy.server.ts). */
  alerts?: PersonAlert[];
  /** Issue 24: the person's proposals, their offers and deals (features/deals/privacy.server.ts). */
  proposals?: PersonProposal[];
};

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value ? iso(value) : null);

/** The person around one lead, or null when the lead does not exist. */
export async function loadPerson(db: Database, anchorId: string): Promise<PersonData | null> {
  const ids = await personLeadIds(db, anchorId);
  if (ids.length === 0) return null;
  return loadLeadsData(db, anchorId, ids);
}

export async function loadLeadsData(db: Database, anchorId: string, ids: string[]): Promise<PersonData> {
  const mailIds = await personMailIds(db, ids);
  const [leadRows, eventRows, visitRows, emailRows, profileRows, sentRows, alertRows, proposalRows] = await Promise.all([
    db
      .select({ lead: leads, codigo: properties.codigo, title: properties.title })
      .from(leads)
      .leftJoin(properties, eq(properties.id, leads.property_id))
      .where(inArray(leads.id, ids))
      .orderBy(desc(leads.created_at), desc(leads.id)),
    db.select().from(lead_events).where(inArray(lead_events.lead_id, ids)).orderBy(asc(lead_events.at), asc(lead_events.id)),
    db
      .select({ visit: visits, codigo: properties.codigo, title: properties.title })
      .from(visits)
      .leftJoin(properties, eq(properties.id, visits.property_id))
      .where(inArray(visits.lead_id, ids))
      .orderBy(asc(visits.scheduled_at), asc(visits.id)),
    loadEmails(db, mailIds),
    db.select().from(lead_profiles).where(inArray(lead_profiles.lead_id, ids)).orderBy(asc(lead_profiles.created_at), asc(lead_profiles.id)),
    db
      .select({ sent: lead_matches_sent, codigo: properties.codigo, title: properties.title })
      .from(lead_matches_sent)
      .innerJoin(properties, eq(properties.id, lead_matches_sent.property_id))
      .where(inArray(lead_matches_sent.lead_id, ids))
      .orderBy(asc(lead_matches_sent.sent_at), asc(lead_matches_sent.id)),
    personAlerts(db, ids),
    personProposals(db, ids),
  ]);
  return {
    anchorId,
    leads: leadRows.map(({ lead, codigo, title }) => ({
      ...crmLeadFields(lead),
      next_contact_at: isoOrNull(lead.next_contact_at),
      visit_preferences: lead.visit_preferences ?? null,
      property: codigo && title ? { codigo, title } : null,
      anonymized: isAnonymized(lead),
    })),
    events: eventRows.map((event) => ({
      id: event.id,
      lead_id: event.lead_id,
      kind: event.kind,
      at: iso(event.at),
      actor_name: event.actor_name,
      from_status: event.from_status,
      to_status: event.to_status,
      body: event.body,
      next_contact_at: isoOrNull(event.next_contact_at),
      lost_reason: event.lost_reason,
    })),
    visits: visitRows.map(({ visit, codigo, title }) => ({
      id: visit.id,
      lead_id: visit.lead_id,
      scheduled_at: iso(visit.scheduled_at),
      status: visit.status,
      notes: visit.notes,
      property: codigo && title ? { codigo, title } : null,
      created_by_name: visit.created_by_name,
      created_at: iso(visit.created_at),
    })),
    emails: emailRows,
    profiles: profileRows.map((profile) => ({
      id: profile.id,
      lead_id: profile.lead_id,
      summary: profileSummary(profile),
      created_at: iso(profile.created_at),
      updated_at: iso(profile.updated_at),
    })),
    matchesSent: sentRows.map(({ sent, codigo, title }) => ({
      id: sent.id,
      lead_id: sent.lead_id,
      property: { codigo, title },
      channel: sent.channel,
      sent_at: iso(sent.sent_at),
      actor_name: sent.actor_name,
    })),
    alerts: alertRows,
    proposals: proposalRows,
  };
}

/** The outbox rows a person's data lists, oldest first. */
export async function loadEmails(db: Database, mailIds: string[]): Promise<PersonEmail[]> {
  if (mailIds.length === 0) return [];
  const rows = await db.select().from(outbox).where(inArray(outbox.id, mailIds)).orderBy(asc(outbox.created_at), asc(outbox.id));
  return rows.map((mail) => ({
    id: mail.id,
    lead_id: mail.lead_id,
    kind: mail.kind,
    to_address: mail.to_address,
    reply_to: mail.reply_to,
    subject: mail.subject,
    text_body: mail.text_body,
    html_body: mail.html_body,
    status: mail.status,
    created_at: iso(mail.created_at),
    sent_at: isoOrNull(mail.sent_at),
  }));
}

/** An 'Avise-me' subscriber with no lead as a person (decision 025): their alerts and alert e-mails. */
export async function subscriberAsPerson(db: Database, subscriber: AlertSubscriber): Promise<PersonData> {
  return { anchorId: subscriber.anchorId, leads: [], events: [], visits: [], emails: await loadEmails(db, subscriber.mailIds), profiles: [], matchesSent: [], alerts: subscriber.alerts };
}

export const personCounts = (person: PersonData) => ({
  leads: person.leads.length,
  events: person.events.length,
  visits: person.visits.length,
  emails: person.emails.length,
});
