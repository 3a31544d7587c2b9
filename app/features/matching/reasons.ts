import type { PropertyFeature, PropertyPurpose, PropertyType } from "~/db/values";
import { FEATURES } from "~/features/properties/features";
import { PURPOSE_LABELS, TYPE_LABELS } from "~/features/properties/labels";

/**
 * Why a listing fits a lead's profile, one line per criterion ('3 quartos ✓', 'Capim Macio ✓',
 * 'R$ 590 mil ✓', 'sem piscina ✗'). Hard criteria (purpose, types, price ceiling, neighbourhoods,
 * 'aceita financiamento') are what the SQL match requires; soft ones score. The same score is
 * computed in SQL (match.server.ts, `softScoreSql`): keep the two in step.
 */

export type MatchProfile = {
  purpose: PropertyPurpose;
  types: readonly PropertyType[];
  neighborhoods: readonly string[];
  price_min: number | null;
  price_max: number | null;
  min_bedrooms: number | null;
  min_suites: number | null;
  min_parking: number | null;
  min_area: number | null;
  features: readonly PropertyFeature[];
  accepts_financing: boolean;
};

export type MatchListing = {
  type: PropertyType;
  purpose: PropertyPurpose;
  neighborhood: string;
  price: number;
  bedrooms: number | null;
  suites: number | null;
  parking_spaces: number | null;
  area: number | null;
  features: readonly string[];
  accepts_financing: boolean | null;
};

export type MatchReason = { key: string; text: string; ok: boolean; hard: boolean };

/** The neighbourhood as the SQL compares it (immutable_unaccent(lower(…))). */
export const neighborhoodKey = (value: string) =>
  value
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** 'R$ 590 mil', 'R$ 1,25 mi', 'R$ 2.500' — short, for a reason chip. */
export function shortPrice(value: number): string {
  const number = (n: number, digits: number) => new Intl.NumberFormat("pt-BR", { maximumFractionDigits: digits }).format(n);
  if (value >= 1_000_000) return `R$ ${number(value / 1_000_000, 2)} mi`;
  if (value >= 10_000) return `R$ ${number(value / 1000, 0)} mil`;
  return `R$ ${number(value, 0)}`;
}

export function matchReasons(profile: MatchProfile, listing: MatchListing): MatchReason[] {
  const reasons: MatchReason[] = [];
  const add = (key: string, text: string, ok: boolean, hard: boolean) => reasons.push({ key, text, ok, hard });
  add("purpose", PURPOSE_LABELS[listing.purpose], listing.purpose === profile.purpose, true);
  if (profile.types.length > 0) add("type", TYPE_LABELS[listing.type], profile.types.includes(listing.type), true);
  if (profile.neighborhoods.length > 0) {
    const key = neighborhoodKey(listing.neighborhood);
    add("neighborhood", listing.neighborhood, profile.neighborhoods.some((wanted) => neighborhoodKey(wanted) === key), true);
  }
  if (profile.price_max !== null || profile.price_min !== null) {
    const underMax = profile.price_max === null || listing.price <= profile.price_max;
    const overMin = profile.price_min === null || listing.price >= profile.price_min;
    add("price", shortPrice(listing.price), underMax && overMin, profile.price_max !== null && !underMax);
  }
  const minimum = (key: string, wanted: number | null, actual: number | null, one: string, many: string, unknown: string) => {
    if (wanted === null || wanted <= 0) return;
    add(key, actual === null ? unknown : plural(actual, one, many), actual !== null && actual >= wanted, false);
  };
  minimum("bedrooms", profile.min_bedrooms, listing.bedrooms, "quarto", "quartos", "quartos não informados");
  minimum("suites", profile.min_suites, listing.suites, "suíte", "suítes", "suítes não informadas");
  minimum("parking", profile.min_parking, listing.parking_spaces, "vaga", "vagas", "vagas não informadas");
  if (profile.min_area !== null && profile.min_area > 0) {
    const area = listing.area;
    add("area", area === null ? "área não informada" : `${new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 0 }).format(area)} m²`, area !== null && area >= profile.min_area, false);
  }
  for (const feature of profile.features) {
    const label = FEATURES[feature]?.label ?? feature;
    const has = listing.features.includes(feature);
    add(`feature:${feature}`, has ? label : `sem ${label.charAt(0).toLowerCase()}${label.slice(1)}`, has, false);
  }
  if (profile.accepts_financing) add("financing", listing.accepts_financing ? "Aceita financiamento" : "Não aceita financiamento", listing.accepts_financing === true, true);
  return reasons;
}

/**
 * The soft score: one point per soft criterion met (minimums, each must-have feature, the price
 * floor). Equal to `softScoreSql` in match.server.ts.
 */
export function softScore(profile: MatchProfile, listing: MatchListing): number {
  let score = 0;
  if (profile.price_min !== null && listing.price >= profile.price_min) score++;
  const atLeast = (wanted: number | null, actual: number | null) => wanted !== null && wanted > 0 && actual !== null && actual >= wanted;
  if (atLeast(profile.min_bedrooms, listing.bedrooms)) score++;
  if (atLeast(profile.min_suites, listing.suites)) score++;
  if (atLeast(profile.min_parking, listing.parking_spaces)) score++;
  if (atLeast(profile.min_area, listing.area)) score++;
  for (const feature of profile.features) if (listing.features.includes(feature)) score++;
  return score;
}

/** The reason line as the page shows it: 'Capim Macio ✓'. */
export const reasonLine = (reason: MatchReason) => `${reason.text} ${reason.ok ? "✓" : "✗"}`;

/** A profile in one line: 'Venda · Apartamento · Capim Macio · até R$ 600 mil · 3+ quartos'. */
export function profileSummary(profile: MatchProfile): string {
  const parts: string[] = [PURPOSE_LABELS[profile.purpose]];
  if (profile.types.length) parts.push(profile.types.map((type) => TYPE_LABELS[type]).join(", "));
  if (profile.neighborhoods.length) parts.push(profile.neighborhoods.join(", "));
  if (profile.price_min !== null && profile.price_max !== null) parts.push(`${shortPrice(profile.price_min)} a ${shortPrice(profile.price_max)}`);
  else if (profile.price_max !== null) parts.push(`até ${shortPrice(profile.price_max)}`);
  else if (profile.price_min !== null) parts.push(`a partir de ${shortPrice(profile.price_min)}`);
  if (profile.min_bedrooms) parts.push(`${profile.min_bedrooms}+ quartos`);
  if (profile.min_suites) parts.push(`${profile.min_suites}+ suítes`);
  if (profile.min_parking) parts.push(`${profile.min_parking}+ vagas`);
  if (profile.min_area) parts.push(`${profile.min_area}+ m²`);
  if (profile.features.length) parts.push(profile.features.map((key) => FEATURES[key]?.label ?? key).join(", "));
  if (profile.accepts_financing) parts.push("aceita financiamento");
  return parts.join(" · ");
}
