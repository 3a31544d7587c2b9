import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { lead_profiles, leads } from "~/db/schema";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { isUuid } from "~/lib/ids";
import { PROFILE_LIMITS, type ProfileInput } from "./profile-schema";
import type { MatchProfile } from "./reasons";

/**
 * A lead's profiles (perfil de busca): read, save, delete. Each write records an audit row in the
 * same transaction, naming the fields (never values), as the lead's other edits do.
 */

export type LeadProfile = MatchProfile & { id: string; lead_id: string; created_at: string; updated_at: string };

const columns = {
  id: lead_profiles.id,
  lead_id: lead_profiles.lead_id,
  purpose: lead_profiles.purpose,
  types: lead_profiles.types,
  neighborhoods: lead_profiles.neighborhoods,
  price_min: lead_profiles.price_min,
  price_max: lead_profiles.price_max,
  min_bedrooms: lead_profiles.min_bedrooms,
  min_suites: lead_profiles.min_suites,
  min_parking: lead_profiles.min_parking,
  min_area: lead_profiles.min_area,
  features: lead_profiles.features,
  accepts_financing: lead_profiles.accepts_financing,
  created_at: lead_profiles.created_at,
  updated_at: lead_profiles.updated_at,
};

const toProfile = (row: { created_at: Date; updated_at: Date } & Omit<LeadProfile, "created_at" | "updated_at">): LeadProfile => ({
  ...row,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

export async function loadLeadProfiles(db: Database, leadId: string): Promise<LeadProfile[]> {
  if (!isUuid(leadId)) return [];
  const rows = await db.select(columns).from(lead_profiles).where(eq(lead_profiles.lead_id, leadId)).orderBy(asc(lead_profiles.created_at), asc(lead_profiles.id));
  return rows.map(toProfile);
}

export async function loadProfile(db: Database, id: string): Promise<LeadProfile | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select(columns).from(lead_profiles).where(eq(lead_profiles.id, id));
  return row ? toProfile(row) : null;
}

/** The neighbourhoods as the listings' index compares them, computed by the database itself. */
const keysOf = (names: readonly string[]) =>
  sql`array(select immutable_unaccent(lower(name)) from unnest(${sql.param(names)}::text[]) as name)`;

const values = (input: ProfileInput) => ({
  purpose: input.purpose,
  types: input.types,
  neighborhoods: input.neighborhoods,
  neighborhood_keys: keysOf(input.neighborhoods),
  price_min: input.price_min,
  price_max: input.price_max,
  min_bedrooms: input.min_bedrooms,
  min_suites: input.min_suites,
  min_parking: input.min_parking,
  min_area: input.min_area,
  features: input.features,
  accepts_financing: input.accepts_financing,
});

export type SaveResult = { ok: true; id: string } | { ok: false; reason: "lead-not-found" | "profile-not-found" | "too-many" };

/** Creates (no profileId) or updates a profile of the lead. */
export async function saveLeadProfile(db: Database, actor: AuditActor, leadId: string, profileId: string | null, input: ProfileInput): Promise<SaveResult> {
  if (!isUuid(leadId)) return { ok: false, reason: "lead-not-found" };
  if (profileId !== null && !isUuid(profileId)) return { ok: false, reason: "profile-not-found" };
  return db.transaction(async (tx) => {
    const [lead] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, leadId)).for("update");
    if (!lead) return { ok: false, reason: "lead-not-found" } as const;
    if (profileId === null) {
      const [{ total }] = await tx.select({ total: count() }).from(lead_profiles).where(eq(lead_profiles.lead_id, leadId));
      if (Number(total) >= PROFILE_LIMITS.profilesPerLead) return { ok: false, reason: "too-many" } as const;
      const [row] = await tx.insert(lead_profiles).values({ lead_id: leadId, ...values(input) }).returning({ id: lead_profiles.id });
      await recordAudit(tx, { actor, action: "lead.profile_create", entity: "lead", entityId: leadId, details: { profileId: row.id } });
      return { ok: true, id: row.id } as const;
    }
    const [row] = await tx
      .update(lead_profiles)
      .set({ ...values(input), updated_at: sql`now()` })
      .where(and(eq(lead_profiles.id, profileId), eq(lead_profiles.lead_id, leadId)))
      .returning({ id: lead_profiles.id });
    if (!row) return { ok: false, reason: "profile-not-found" } as const;
    await recordAudit(tx, { actor, action: "lead.profile_update", entity: "lead", entityId: leadId, details: { profileId: row.id, fields: Object.keys(input) } });
    return { ok: true, id: row.id } as const;
  });
}

export async function deleteLeadProfile(db: Database, actor: AuditActor, leadId: string, profileId: string): Promise<boolean> {
  if (!isUuid(leadId) || !isUuid(profileId)) return false;
  return db.transaction(async (tx) => {
    const rows = await tx
      .delete(lead_profiles)
      .where(and(eq(lead_profiles.id, profileId), eq(lead_profiles.lead_id, leadId)))
      .returning({ id: lead_profiles.id });
    if (rows.length === 0) return false;
    await recordAudit(tx, { actor, action: "lead.profile_delete", entity: "lead", entityId: leadId, details: { profileId } });
    return true;
  });
}

/**
 * The profile suggested for a lead that came from a property page: its purpose and type, its
 * neighbourhood, its price ±15% and its bedrooms (docs/decisions/023). Null without a property.
 */
export function suggestedProfile(property: {
  purpose: MatchProfile["purpose"];
  type: NonNullable<MatchProfile["types"][number]>;
  neighborhood: string;
  price: number;
  bedrooms: number | null;
} | null): MatchProfile | null {
  if (!property) return null;
  const round = (value: number) => Math.round(value / 1000) * 1000 || Math.round(value);
  return {
    purpose: property.purpose,
    types: [property.type],
    neighborhoods: [property.neighborhood],
    price_min: property.price > 0 ? round(property.price * 0.85) : null,
    price_max: property.price > 0 ? round(property.price * 1.15) : null,
    min_bedrooms: property.bedrooms && property.bedrooms > 0 ? property.bedrooms : null,
    min_suites: null,
    min_parking: null,
    min_area: null,
    features: [],
    accepts_financing: false,
  };
}
