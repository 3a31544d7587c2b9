import { and, desc, eq, inArray, isNotNull, like, or, type SQL, sql } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import { leads, listing_alert_tokens, listing_alerts, outbox } from "~/db/schema";
import type { DbOrTx } from "~/features/mail/outbox.server";
import { alertFilters } from "./alerts.server";
import { describeFilters } from "./describe";

/**
 * 'Avise-me' subscribers in the privacy tools (issue 23, item 6; decision 025): the alerts of a
 * person are those made into one of their leads, or under one of their e-mail addresses or phone
 * numbers. Listed in the export and deleted (with their e-mails) when the person is anonymised.
 */

export type PersonAlert = { id: string; email: string; phone: string | null; search: string; status: string; created_at: string; confirmed_at: string | null; last_sent_at: string | null };

async function contactsOf(db: DbOrTx, leadIds: string[]): Promise<{ emails: string[]; phones: string[] }> {
  if (leadIds.length === 0) return { emails: [], phones: [] };
  const rows = await db.select({ email: leads.email, phone: leads.phone }).from(leads).where(inArray(leads.id, leadIds));
  const emails = [...new Set(rows.flatMap((row) => (row.email?.trim() ? [row.email.trim().toLowerCase()] : [])))];
  const phones = [...new Set(rows.map((row) => row.phone.replace(/\D/g, "")).filter((digits) => digits.length >= 10))];
  return { emails, phones };
}

function alertsWhere(leadIds: string[], contacts: { emails: string[]; phones: string[] }) {
  return or(
    leadIds.length ? inArray(listing_alerts.lead_id, leadIds) : sql`false`,
    contacts.emails.length ? inArray(sql`lower(${listing_alerts.email})`, contacts.emails) : sql`false`,
    contacts.phones.length ? and(isNotNull(listing_alerts.phone), inArray(sql`regexp_replace(${listing_alerts.phone}, '\\D', '', 'g')`, contacts.phones)) : sql`false`,
  );
}

const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);

function toPersonAlert(row: typeof listing_alerts.$inferSelect): PersonAlert {
  return {
    id: row.id,
    email: row.email,
    phone: row.phone,
    search: describeFilters(alertFilters(row.query)),
    status: row.status === "confirmed" ? "Confirmado" : "Aguardando confirmação",
    created_at: row.created_at.toISOString(),
    confirmed_at: isoOrNull(row.confirmed_at),
    last_sent_at: isoOrNull(row.last_sent_at),
  };
}

export async function personAlerts(db: DbOrTx, leadIds: string[]): Promise<PersonAlert[]> {
  if (leadIds.length === 0) return [];
  const rows = await db.select().from(listing_alerts).where(alertsWhere(leadIds, await contactsOf(db, leadIds))).orderBy(listing_alerts.created_at);
  return rows.map(toPersonAlert);
}

/** Deletes the person's alerts (their links and claims go with them) and the alert e-mails to those addresses. Call before the leads lose their contacts. */
export async function deletePersonAlerts(tx: DbOrTx, leadIds: string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  return deleteAlertsWhere(tx, alertsWhere(leadIds, await contactsOf(tx, leadIds)));
}

async function deleteAlertsWhere(tx: DbOrTx, where: SQL | undefined): Promise<number> {
  const deleted = await tx.delete(listing_alerts).where(where).returning({ email: listing_alerts.email });
  const addresses = [...new Set(deleted.map((row) => row.email.toLowerCase()))];
  if (addresses.length) await tx.delete(listing_alert_tokens).where(inArray(sql`lower(${listing_alert_tokens.email})`, addresses));
  if (addresses.length) await tx.delete(outbox).where(and(like(outbox.kind, "alert-%"), inArray(sql`lower(${outbox.to_address})`, addresses)));
  return deleted.length;
}

/**
 * A subscriber with no lead (an e-mail-only alert makes none: decision 025) is still a person
 * under the LGPD: found in CRM → Privacidade by the alert's e-mail or WhatsApp number, shown by
 * one of their alerts' id (never the address in the URL), exported and erased from there.
 */
export async function findAlertByContact(db: DbOrTx, query: { kind: "email"; email: string } | { kind: "phone"; digits: string[] }): Promise<string | null> {
  const where =
    query.kind === "email"
      ? sql`lower(${listing_alerts.email}) = ${query.email}`
      : and(isNotNull(listing_alerts.phone), inArray(sql`regexp_replace(${listing_alerts.phone}, '\\D', '', 'g')`, query.digits));
  const [row] = await db.select({ id: listing_alerts.id }).from(listing_alerts).where(where).orderBy(desc(listing_alerts.created_at)).limit(1);
  return row?.id ?? null;
}

/** The contacts of one alert: its address and its WhatsApp digits, which find the subscriber's other alerts. */
async function subscriberContacts(db: DbOrTx, alertId: string): Promise<{ emails: string[]; phones: string[] } | null> {
  if (!isUuid(alertId)) return null;
  const [alert] = await db.select({ email: listing_alerts.email, phone: listing_alerts.phone }).from(listing_alerts).where(eq(listing_alerts.id, alertId));
  if (!alert) return null;
  const digits = alert.phone?.replace(/\D/g, "") ?? "";
  return { emails: [alert.email.trim().toLowerCase()], phones: digits.length >= 10 ? [digits] : [] };
}

export type AlertSubscriber = { anchorId: string; email: string; alerts: PersonAlert[]; mailIds: string[] };

export async function loadAlertSubscriber(db: DbOrTx, alertId: string): Promise<AlertSubscriber | null> {
  const contacts = await subscriberContacts(db, alertId);
  if (!contacts) return null;
  const rows = await db.select().from(listing_alerts).where(alertsWhere([], contacts)).orderBy(listing_alerts.created_at);
  const addresses = [...new Set(rows.map((row) => row.email.toLowerCase()))];
  const mails = addresses.length
    ? await db.select({ id: outbox.id }).from(outbox).where(and(like(outbox.kind, "alert-%"), inArray(sql`lower(${outbox.to_address})`, addresses)))
    : [];
  return { anchorId: alertId, email: contacts.emails[0], alerts: rows.map(toPersonAlert), mailIds: mails.map((mail) => mail.id) };
}

/** Erases the subscriber's alerts, links and alert e-mails; the number of alerts erased. */
export async function deleteAlertSubscriber(tx: DbOrTx, alertId: string): Promise<number> {
  const contacts = await subscriberContacts(tx, alertId);
  if (!contacts) return 0;
  return deleteAlertsWhere(tx, alertsWhere([], contacts));
}
