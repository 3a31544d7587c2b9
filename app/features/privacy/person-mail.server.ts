import { inArray, sql, type SQL } from "drizzle-orm";
import { queryRows } from "~/db/client.server";
import type { Tx } from "~/features/audit/audit.server";
import type { Database } from "~/db/client.server";
import { leads, outbox } from "~/db/schema";
import { ANONYMIZED } from "./markers";

/**
 * The e-mails about a person: those linked to one of their leads (the new-lead alert), and
 * those that are not but name them — sent to or answering their address, or holding their
 * e-mail (any case) or their phone in the text (as they typed it, or its digits standing alone,
 * with or without the country code: the alert's tel: and WhatsApp links). The export lists
 * them all and anonymisation scrubs them all.
 */

const digitsOf = (phone: string) => phone.replace(/\D/g, "");
const textArray = (values: string[]) =>
  values.length ? sql`array[${sql.join(values.map((value) => sql`${value}`), sql`, `)}]::text[]` : sql`array[]::text[]`;

/** The phones and e-mails of these leads (anonymised ones carry markers, which match nothing). */
async function contactsOf(db: Database | Tx, ids: string[]) {
  const rows = await db.select({ phone: leads.phone, email: leads.email }).from(leads).where(inArray(leads.id, ids));
  const phones = new Set<string>();
  const digits = new Set<string>();
  const emails = new Set<string>();
  for (const row of rows) {
    const d = digitsOf(row.phone);
    // Fewer than 10 digits is not a whole Brazilian phone: too short to search text for.
    if (d.length >= 10 && row.phone !== ANONYMIZED.phone) {
      digits.add(d);
      phones.add(row.phone.trim());
    }
    if (row.email?.trim()) emails.add(row.email.trim().toLowerCase());
  }
  return { phones: [...phones], digits: [...digits], emails: [...emails] };
}

/** The condition on `outbox` that picks the e-mails about the person with these leads. */
export async function personMailCondition(db: Database | Tx, ids: string[]): Promise<SQL> {
  const { phones, digits, emails } = await contactsOf(db, ids);
  const body = sql`coalesce(${outbox.subject}, '') || ' ' || ${outbox.text_body} || ' ' || coalesce(${outbox.html_body}, '')`;
  return sql`(
    ${ids.length ? inArray(outbox.lead_id, ids) : sql`false`}
    or lower(${outbox.to_address}) = any(${textArray(emails)})
    or lower(coalesce(${outbox.reply_to}, '')) = any(${textArray(emails)})
    or exists (select 1 from unnest(${textArray(emails)}) as e(v) where strpos(lower(${body}), e.v) > 0)
    or exists (select 1 from unnest(${textArray(phones)}) as p(v) where strpos(${body}, p.v) > 0)
    or exists (
      select 1 from unnest(${textArray(digits)}) as d(v)
      where strpos(${body}, d.v) > 0 and ${body} ~ ('(^|[^0-9])(55)?' || d.v || '([^0-9]|$)')
    )
  )`;
}

/** The ids of those e-mails, oldest first. */
export async function personMailIds(db: Database | Tx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const condition = await personMailCondition(db, ids);
  const rows = await queryRows<{ id: string }>(db as Database, sql`select id from ${outbox} where ${condition} order by created_at, id`);
  return rows.map((row) => row.id);
}
