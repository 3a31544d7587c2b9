import { and, inArray, isNotNull, like, or, sql } from "drizzle-orm";
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

export async function personAlerts(db: DbOrTx, leadIds: string[]): Promise<PersonAlert[]> {
  if (leadIds.length === 0) return [];
  const rows = await db.select().from(listing_alerts).where(alertsWhere(leadIds, await contactsOf(db, leadIds))).orderBy(listing_alerts.created_at);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    phone: row.phone,
    search: describeFilters(alertFilters(row.query)),
    status: row.status === "confirmed" ? "Confirmado" : "Aguardando confirmação",
    created_at: row.created_at.toISOString(),
    confirmed_at: isoOrNull(row.confirmed_at),
    last_sent_at: isoOrNull(row.last_sent_at),
  }));
}

/** Deletes the person's alerts (their links and claims go with them) and the alert e-mails to those addresses. Call before the leads lose their contacts. */
export async function deletePersonAlerts(tx: DbOrTx, leadIds: string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const deleted = await tx.delete(listing_alerts).where(alertsWhere(leadIds, await contactsOf(tx, leadIds))).returning({ email: listing_alerts.email });
  const addresses = [...new Set(deleted.map((row) => row.email.toLowerCase()))];
  if (addresses.length) await tx.delete(listing_alert_tokens).where(inArray(sql`lower(${listing_alert_tokens.email})`, addresses));
  if (addresses.length) await tx.delete(outbox).where(and(like(outbox.kind, "alert-%"), inArray(sql`lower(${outbox.to_address})`, addresses)));
  return deleted.length;
}
