import { eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invitation, leads, properties, user, visits } from "~/db/schema";
import { isUuid } from "~/lib/ids";
import { formatDateTime } from "~/lib/format";
import type { Names, StoredEntry } from "./describe";

/**
 * What the records and people on one page of the trail are called now, read from the records
 * themselves (the trail keeps ids, no personal data). A record deleted since is simply absent.
 * One query per kind of record, whatever the page holds.
 */
export async function currentNames(db: Database, rows: StoredEntry[]): Promise<Names> {
  const ids = (entity: string) => unique(rows.filter((row) => row.entity === entity).map((row) => row.entity_id));
  const leadIds = unique([...ids("lead"), ...rows.flatMap((row) => listedLeads(row.details))]).filter(isUuid);
  const propertyIds = ids("property").filter(isUuid);
  const visitIds = ids("visit").filter(isUuid);
  const invitationIds = ids("invitation").filter(isUuid);
  const userIds = unique([...ids("user"), ...rows.map((row) => row.actor_id)]).filter((id) => id.length <= 100);

  const [leadRows, propertyRows, visitRows, invitationRows, userRows] = await Promise.all([
    leadIds.length ? db.select({ id: leads.id, name: leads.full_name }).from(leads).where(inArray(leads.id, leadIds)) : [],
    propertyIds.length
      ? db.select({ id: properties.id, codigo: properties.codigo, title: properties.title }).from(properties).where(inArray(properties.id, propertyIds))
      : [],
    visitIds.length
      ? db
          .select({ id: visits.id, at: visits.scheduled_at, lead: leads.full_name })
          .from(visits)
          .innerJoin(leads, eq(leads.id, visits.lead_id))
          .where(inArray(visits.id, visitIds))
      : [],
    invitationIds.length
      ? db.select({ id: invitation.id, email: invitation.email }).from(invitation).where(inArray(invitation.id, invitationIds))
      : [],
    userIds.length ? db.select({ id: user.id, name: user.name, email: user.email }).from(user).where(inArray(user.id, userIds)) : [],
  ]);

  const records = new Map<string, string>();
  for (const row of leadRows) records.set(`lead:${row.id}`, row.name);
  for (const row of propertyRows) records.set(`property:${row.id}`, `${row.codigo} — ${row.title}`);
  for (const row of visitRows) records.set(`visit:${row.id}`, `de ${row.lead} em ${formatDateTime(row.at)}`);
  for (const row of invitationRows) records.set(`invitation:${row.id}`, row.email);
  const people = new Map<string, { name: string; email: string }>();
  for (const row of userRows) {
    people.set(row.id, { name: row.name, email: row.email });
    records.set(`user:${row.id}`, `${row.name} (${row.email})`);
  }
  return { records, people };
}

/** The lead ids an entry names in its details (privacy exports and anonymisations). */
function listedLeads(details: unknown): string[] {
  const list = details && typeof details === "object" ? (details as { leadIds?: unknown }).leadIds : undefined;
  return Array.isArray(list) ? list.filter((id): id is string => typeof id === "string") : [];
}

const unique = (values: (string | null)[]) => [...new Set(values.filter((value): value is string => Boolean(value)))];
