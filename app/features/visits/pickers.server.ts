import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads, properties } from "~/db/schema";
import { preferenceLabels } from "~/features/leads/visit-preferences";
import { isUuid } from "~/lib/ids";
import { containsPattern } from "~/lib/pagination";

/**
 * The choices of the lead and listing pickers (the visit dialog, the WhatsApp-lead dialog) and what
 * `?lead=<id>` opens the schedule form with.
 */

/** `preferences`: the days and periods the lead asked for when booking (issue 25), as labels. */
export type LeadOption = { id: string; label: string; property_id: string | null; preferences?: string[] };
export type PropertyOption = { id: string; label: string };

const PICKER_LIMIT = 20;

const leadLabel = (lead: { full_name: string; phone: string }) => `${lead.full_name} — ${lead.phone}`;
const propertyLabel = (property: { codigo: string; title: string }) => `${property.codigo} — ${property.title}`;

/**
 * The lead picker's choices: the most recent leads, or those matching a search by name, e-mail
 * or phone (digits alone match too). The expression is the one leads_search_idx indexes
 * (migration 0004, as in features/leads/crm.server.ts): change both or the index goes unused.
 */
export async function leadOptions(db: Database, search: string): Promise<LeadOption[]> {
  const where = search
    ? sql`lead_search_text(${leads.full_name}, ${leads.email}, ${leads.phone}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`
    : undefined;
  const rows = await db
    .select({ id: leads.id, full_name: leads.full_name, phone: leads.phone, property_id: leads.property_id, preferences: leads.visit_preferences })
    .from(leads)
    .where(where)
    .orderBy(desc(leads.created_at), desc(leads.id))
    .limit(PICKER_LIMIT);
  return rows.map((row) => ({ id: row.id, label: leadLabel(row), property_id: row.property_id, preferences: preferenceLabels(row.preferences) }));
}

/** The property picker's choices: the latest listings, or those whose código, title or bairro match. */
export async function propertyOptions(db: Database, search: string): Promise<PropertyOption[]> {
  const where = search
    ? sql`property_search_text(${properties.codigo}, ${properties.title}, ${properties.neighborhood}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`
    : undefined;
  const rows = await db
    .select({ id: properties.id, codigo: properties.codigo, title: properties.title })
    .from(properties)
    .where(where)
    .orderBy(desc(properties.created_at), desc(properties.id))
    .limit(PICKER_LIMIT);
  return rows.map((row) => ({ id: row.id, label: propertyLabel(row) }));
}

/**
 * What `?lead=<id>` opens the schedule form with: the lead, and the property the lead booked a
 * visit for (leads.property_id), if any. Null for an unknown or malformed id.
 */
export async function schedulePrefill(db: Database, leadId: string | null): Promise<{ lead: LeadOption; property: PropertyOption | null } | null> {
  if (!isUuid(leadId)) return null;
  const [row] = await db
    .select({
      id: leads.id,
      full_name: leads.full_name,
      phone: leads.phone,
      property_id: leads.property_id,
      preferences: leads.visit_preferences,
      codigo: properties.codigo,
      title: properties.title,
    })
    .from(leads)
    .leftJoin(properties, eq(properties.id, leads.property_id))
    .where(eq(leads.id, leadId))
    .limit(1);
  if (!row) return null;
  return {
    lead: { id: row.id, label: leadLabel(row), property_id: row.property_id, preferences: preferenceLabels(row.preferences) },
    property: row.property_id && row.codigo ? { id: row.property_id, label: propertyLabel({ codigo: row.codigo, title: row.title! }) } : null,
  };
}
