import { and, desc, eq, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { lead_matches_sent, lead_profiles, leads, properties } from "~/db/schema";
import type { LeadStatus, PropertyFeature, PropertyPurpose, PropertyType } from "~/db/values";
import { mediaUrlForWidth, showableImages } from "~/features/media/urls";
import { isUuid } from "~/lib/ids";
import type { LeadProfile } from "./profiles.server";
import { type MatchListing, type MatchProfile, type MatchReason, matchReasons } from "./reasons";

/**
 * Matching both ways, in SQL (docs/decisions/023). One predicate, `fits`, says that a listing fits
 * a profile (hard criteria) and one expression, `softScore`, ranks; both are written once here and
 * used by the lead page (a profile's listings), the CRM listing page (a listing's leads) and the
 * dashboard ('Novos matches', new-matches.server.ts). Each query reads a bounded number of rows
 * through indexes: properties_similar_idx (type, purpose, price where available) for a profile's
 * listings, and lead_profiles_match_idx (purpose, price_max) for a listing's leads. Nothing loads
 * every lead.
 */

/** Leads that are closed (converted or lost) are not offered listings by the reverse match. */
export const CLOSED_LEAD_STATUSES = ["convertido", "perdido"] as const satisfies readonly LeadStatus[];

export const PROFILE_MATCH_LIMIT = 20;
export const PROPERTY_LEADS_LIMIT = 50;

const lp = lead_profiles;
const p = properties;

/**
 * The listing fits the profile: every hard criterion holds, and the listing is available. Types
 * and neighbourhoods compare through the generated match_* columns ("any" stored as '*'), so a
 * listing's profiles are found by the GIN indexes (a BitmapAnd) rather than by reading every
 * profile of its purpose.
 */
export const fits: SQL = sql`(
  ${p.status} = 'disponivel'
  and ${p.purpose} = ${lp.purpose}
  and (${lp.price_max} is null or ${p.price} <= ${lp.price_max})
  and ${lp.match_types} && array[${p.type}::text, '*']
  and ${lp.match_neighborhoods} && array[immutable_unaccent(lower(${p.neighborhood})), '*']
  and (not ${lp.accepts_financing} or ${p.accepts_financing} is true)
)`;

/** One point per soft criterion met; equal to softScore() in reasons.ts. */
export const softScore = sql<number>`(
  (case when ${lp.price_min} is not null and ${p.price} >= ${lp.price_min} then 1 else 0 end)
  + (case when coalesce(${lp.min_bedrooms}, 0) > 0 and ${p.bedrooms} >= ${lp.min_bedrooms} then 1 else 0 end)
  + (case when coalesce(${lp.min_suites}, 0) > 0 and ${p.suites} >= ${lp.min_suites} then 1 else 0 end)
  + (case when coalesce(${lp.min_parking}, 0) > 0 and ${p.parking_spaces} >= ${lp.min_parking} then 1 else 0 end)
  + (case when coalesce(${lp.min_area}, 0) > 0 and ${p.area} >= ${lp.min_area} then 1 else 0 end)
  + (select count(*) from unnest(${lp.features}) as wanted where wanted = any(${p.features}))
)::int`;

const listingColumns = {
  id: p.id,
  codigo: p.codigo,
  title: p.title,
  type: p.type,
  purpose: p.purpose,
  neighborhood: p.neighborhood,
  price: p.price,
  bedrooms: p.bedrooms,
  suites: p.suites,
  parking_spaces: p.parking_spaces,
  area: p.area,
  features: p.features,
  accepts_financing: p.accepts_financing,
  images: p.images,
};

export type ProfileMatch = {
  id: string;
  codigo: string;
  title: string;
  price: number;
  purpose: PropertyPurpose;
  neighborhood: string;
  cover: string | null;
  score: number;
  reasons: MatchReason[];
};

const asListing = (row: MatchListing) => row;

/**
 * The available listings that fit one profile, best first (score, then newest). The profile's
 * own values are repeated as plain conditions on the listing so that the planner walks
 * properties_similar_idx instead of testing every available listing.
 */
export async function matchesForProfile(db: Database, profile: LeadProfile, limit = PROFILE_MATCH_LIMIT): Promise<ProfileMatch[]> {
  const conditions: SQL[] = [eq(lp.id, profile.id), eq(p.purpose, profile.purpose), eq(p.status, "disponivel"), fits];
  if (profile.types.length > 0) conditions.push(inArray(p.type, [...profile.types]));
  if (profile.price_max !== null) conditions.push(sql`${p.price} <= ${profile.price_max}`);
  if (profile.accepts_financing) conditions.push(sql`${p.accepts_financing} is true`);
  const rows = await db
    .select({ ...listingColumns, score: softScore, created_at: p.created_at })
    .from(p)
    .innerJoin(lp, sql`true`)
    .where(and(...conditions))
    .orderBy(desc(softScore), desc(p.created_at), desc(p.id))
    .limit(limit);
  return rows.map((row) => {
    const cover = showableImages(row.images)[0];
    return {
      id: row.id,
      codigo: row.codigo,
      title: row.title,
      price: row.price,
      purpose: row.purpose,
      neighborhood: row.neighborhood,
      cover: cover ? mediaUrlForWidth(cover, 400) : null,
      score: row.score,
      reasons: matchReasons(profile, asListing(row as MatchListing)),
    };
  });
}

export type PropertyLead = {
  leadId: string;
  full_name: string;
  status: LeadStatus;
  hasEmail: boolean;
  hasPhone: boolean;
  profileId: string;
  score: number;
  reasons: MatchReason[];
  sentAt: string | null;
};

const profileOf = (row: Omit<MatchProfile, never>): MatchProfile => ({
  purpose: row.purpose,
  types: row.types,
  neighborhoods: row.neighborhoods,
  price_min: row.price_min,
  price_max: row.price_max,
  min_bedrooms: row.min_bedrooms,
  min_suites: row.min_suites,
  min_parking: row.min_parking,
  min_area: row.min_area,
  features: row.features,
  accepts_financing: row.accepts_financing,
});

const profileColumns = {
  profileId: lp.id,
  purpose: lp.purpose,
  types: lp.types,
  neighborhoods: lp.neighborhoods,
  price_min: lp.price_min,
  price_max: lp.price_max,
  min_bedrooms: lp.min_bedrooms,
  min_suites: lp.min_suites,
  min_parking: lp.min_parking,
  min_area: lp.min_area,
  features: lp.features,
  accepts_financing: lp.accepts_financing,
};

/**
 * The open leads whose profile one listing fits, best first; a lead with several fitting
 * profiles appears once, with its best. Null when the listing does not exist.
 */
export async function leadsForProperty(db: Database, propertyId: string, limit = PROPERTY_LEADS_LIMIT): Promise<{ listing: { id: string; codigo: string; title: string; status: string }; leads: PropertyLead[] } | null> {
  if (!isUuid(propertyId)) return null;
  const [listing] = await db.select({ ...listingColumns, status: p.status }).from(p).where(eq(p.id, propertyId));
  if (!listing) return null;
  const rows = await db
    .select({ ...profileColumns, leadId: leads.id, full_name: leads.full_name, status: leads.status, email: leads.email, phone: leads.phone, score: softScore })
    .from(lp)
    .innerJoin(p, eq(p.id, propertyId))
    .innerJoin(leads, eq(leads.id, lp.lead_id))
    .where(and(eq(lp.purpose, listing.purpose), fits, notInArray(leads.status, [...CLOSED_LEAD_STATUSES])))
    .orderBy(desc(softScore), desc(lp.updated_at), desc(lp.id))
    .limit(limit * 4);
  const seen = new Set<string>();
  const best = rows.filter((row) => (seen.has(row.leadId) ? false : (seen.add(row.leadId), true))).slice(0, limit);
  const sent = best.length
    ? await db
        .select({ lead_id: lead_matches_sent.lead_id, at: sql<string>`max(${lead_matches_sent.sent_at})` })
        .from(lead_matches_sent)
        .where(and(eq(lead_matches_sent.property_id, propertyId), inArray(lead_matches_sent.lead_id, best.map((row) => row.leadId))))
        .groupBy(lead_matches_sent.lead_id)
    : [];
  const sentAt = new Map(sent.map((row) => [row.lead_id, new Date(row.at).toISOString()]));
  return {
    listing: { id: listing.id, codigo: listing.codigo, title: listing.title, status: listing.status },
    leads: best.map((row) => ({
      leadId: row.leadId,
      full_name: row.full_name,
      status: row.status,
      hasEmail: Boolean(row.email),
      hasPhone: Boolean(row.phone),
      profileId: row.profileId,
      score: row.score,
      reasons: matchReasons(profileOf(row), listing as MatchListing),
      sentAt: sentAt.get(row.leadId) ?? null,
    })),
  };
}

export type SentMatch = { id: string; propertyId: string; codigo: string; title: string; channel: "whatsapp" | "email"; at: string; actor: string | null };

/** What was sent to a lead, newest first (capped). */
export async function loadSentMatches(db: Database, leadId: string, limit = 100): Promise<SentMatch[]> {
  if (!isUuid(leadId)) return [];
  const rows = await db
    .select({ id: lead_matches_sent.id, propertyId: p.id, codigo: p.codigo, title: p.title, channel: lead_matches_sent.channel, at: lead_matches_sent.sent_at, actor: lead_matches_sent.actor_name })
    .from(lead_matches_sent)
    .innerJoin(p, eq(p.id, lead_matches_sent.property_id))
    .where(eq(lead_matches_sent.lead_id, leadId))
    .orderBy(desc(lead_matches_sent.sent_at), desc(lead_matches_sent.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, at: new Date(row.at).toISOString() }));
}

export type { PropertyFeature, PropertyType };
