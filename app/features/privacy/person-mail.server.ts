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
const intArray = (values: number[]) => sql`array[${sql.join(values.map((value) => sql`${value}`), sql`, `)}]::int[]`;

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

/*
 * Why not one strpos per contact and message: a retention batch of 200 leads has ~550 contacts,
 * and 75,000 messages × 550 searches took 37–87 s (issue 26, item 2). Each message is now read
 * once, and many contacts are looked up by hash in what it holds; a substring search runs only
 * where that cheap, necessary test passes — what matches is exactly what strpos matched:
 * - a digit string d matches where the text holds a whole run of digits equal to d or 55d (the
 *   regular expression's borders say just that): the runs of 10+ digits against a hashed list;
 * - an e-mail L@D (one @) occurs only where an @ of the text follows L: the text split at its
 *   @s, the end of each piece of each length an L has, against the hashed list of Ls;
 * - a phone as typed occurs only where its longest run of digits K is inside a run of digits of
 *   the text: every piece of those runs as long as a K, against the hashed list of Ks.
 * The hashing costs about as much per message as a dozen searches, so a few contacts (one
 * person's page, export or anonymisation) keep the plain searches. So do e-mails with no @ or
 * several (not from our forms).
 */
const FEW = 12;
const anyIn = (text: SQL, values: string[]) => sql`exists (select 1 from unnest(${textArray(values)}) as c(v) where strpos(${text}, c.v) > 0)`;

function digitsMatch(body: SQL, digits: string[]): SQL {
  if (digits.length <= FEW) {
    return sql`exists (
      select 1 from unnest(${textArray(digits)}) as d(v)
      where strpos(${body}, d.v) > 0 and ${body} ~ ('(^|[^0-9])(55)?' || d.v || '([^0-9]|$)')
    )`;
  }
  return sql`exists (
    select 1 from regexp_matches(${body}, '[0-9]{10,}', 'g') as r(m)
    where r.m[1] = any(${textArray([...digits, ...digits.map((d) => `55${d}`)])})
  )`;
}

function emailsMatch(lowered: SQL, emails: string[]): SQL {
  const oneAt = emails.filter((email) => email.split("@").length === 2);
  if (oneAt.length <= FEW) return anyIn(lowered, emails);
  const others = emails.filter((email) => !oneAt.includes(email));
  const locals = oneAt.map((email) => email.split("@")[0]);
  const lengths = [...new Set(locals.map((local) => local.length))];
  return sql`(
    (strpos(${lowered}, '@') > 0
      and exists (
        select 1 from unnest(string_to_array(${lowered}, '@')) as s(piece), unnest(${intArray(lengths)}) as k(n)
        where right(s.piece, k.n) = any(${textArray(locals)})
      )
      and ${anyIn(lowered, oneAt)})
    or ${others.length ? anyIn(lowered, others) : sql`false`}
  )`;
}

function phonesMatch(body: SQL, phones: string[]): SQL {
  if (phones.length <= FEW) return anyIn(body, phones);
  // Every phone has 10+ digits, so its longest run has at least one.
  const keys = phones.map((phone) => (phone.match(/[0-9]+/g) ?? []).reduce((a, b) => (b.length > a.length ? b : a), ""));
  const lengths = [...new Set(keys.map((key) => key.length))];
  return sql`(
    exists (
      select 1 from regexp_matches(${body}, ${`[0-9]{${Math.min(...lengths)},}`}, 'g') as r(m), unnest(${intArray(lengths)}) as k(n),
        generate_series(1, length(r.m[1]) - k.n + 1) as g(at)
      where substr(r.m[1], g.at, k.n) = any(${textArray(keys)})
    )
    and ${anyIn(body, phones)}
  )`;
}

/** The ids of those e-mails, oldest first. */
export async function personMailIds(db: Database | Tx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { phones, digits, emails } = await contactsOf(db, ids);
  const body = sql`t.body`;
  const lowered = sql`t.lowered`;
  // Put together (and lowered) once per message: "offset 0" keeps PostgreSQL from inlining the
  // expressions back into every use. Cheapest tests first: an OR stops at its first true arm.
  const rows = await queryRows<{ id: string }>(
    db as Database,
    sql`select o.id from ${outbox} as o
      cross join lateral (
        select b.body, ${emails.length ? sql`lower(b.body)` : sql`null::text`} as lowered
        from (select coalesce(o.subject, '') || ' ' || o.text_body || ' ' || coalesce(o.html_body, '') as body offset 0) as b
        offset 0
      ) as t
      where o.lead_id = any(${sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::uuid[]`})
        or lower(o.to_address) = any(${textArray(emails)})
        or lower(coalesce(o.reply_to, '')) = any(${textArray(emails)})
        ${emails.length ? sql`or ${emailsMatch(lowered, emails)}` : sql``}
        ${phones.length ? sql`or ${phonesMatch(body, phones)}` : sql``}
        ${digits.length ? sql`or ${digitsMatch(body, digits)}` : sql``}
      order by o.created_at, o.id`,
  );
  return rows.map((row) => row.id);
}
