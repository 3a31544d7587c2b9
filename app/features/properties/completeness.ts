import type { PropertyPurpose, PropertyType } from "~/db/values";
import { showableImages } from "~/features/media/urls";

/**
 * How complete a listing is, as the portals judge it (issue 22): ZAP, VivaReal and OLX rank a
 * listing by a quality score built from photos, description, price, area, rooms, the monthly
 * charges, features, address and video. One pure function for the CRM form's meter and the CRM
 * list's column, so both always agree.
 *
 * Weights (points out of 100; a check that does not apply to the type is left out and the score
 * is scaled to what applies, so a plot can reach 100%):
 *
 * | check | points | full marks | applies to |
 * |---|---|---|---|
 * | fotos | 25 | 10 photos (the portals ask for 5 at least and rank more higher); each counts 2.5 | all |
 * | descrição | 15 | 300 characters; 50–299 (the portals' minimum) give 7 | all |
 * | preço | 10 | a price (not 'Sob consulta') | all |
 * | área | 10 | área útil or área total | all |
 * | quartos | 5 | given | casa, apartamento |
 * | banheiros | 5 | given | casa, apartamento, ponto comercial |
 * | condomínio | 5 | given | apartamento |
 * | IPTU | 5 | given | all |
 * | características | 10 | 5 features; each counts 2 | all |
 * | endereço e CEP | 5 | both (one gives half) | all |
 * | vídeo ou tour 360° | 5 | either | all |
 */

export const COMPLETENESS_TARGETS = { photos: 10, descriptionChars: 300, descriptionMinChars: 50, features: 5 } as const;

export type CompletenessInput = {
  type: PropertyType | "" | null | undefined;
  purpose?: PropertyPurpose | "" | null;
  price: number | null | undefined;
  description: string;
  images: readonly string[];
  area: number | null | undefined;
  total_area: number | null | undefined;
  bedrooms: number | null | undefined;
  bathrooms: number | null | undefined;
  condo_fee: number | null | undefined;
  iptu_yearly: number | null | undefined;
  features: readonly string[];
  street_address: string | null | undefined;
  cep: string | null | undefined;
  video_url: string | null | undefined;
  tour_url: string | null | undefined;
};

export type CompletenessCheck = {
  key: string;
  weight: number;
  earned: number;
  /** What the broker should add, in the meter's words; null when nothing is missing. */
  missing: string | null;
};

export type Completeness = { percent: number; checks: CompletenessCheck[]; missing: string[] };

const given = (value: number | null | undefined) => typeof value === "number" && Number.isFinite(value) && value > 0;
const filled = (value: string | null | undefined) => typeof value === "string" && value.trim() !== "";
const characters = (text: string) => [...text.trim()].length;
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Applies to every type, or only to these. */
const only = (type: CompletenessInput["type"], types: readonly PropertyType[]) => !type || types.includes(type);

export function listingCompleteness(listing: CompletenessInput): Completeness {
  const checks: CompletenessCheck[] = [];
  const add = (key: string, weight: number, share: number, missing: string) =>
    checks.push({ key, weight, earned: weight * Math.max(0, Math.min(1, share)), missing: share >= 1 ? null : missing });

  const photos = showableImages(listing.images).length;
  add("photos", 25, photos / COMPLETENESS_TARGETS.photos, plural(COMPLETENESS_TARGETS.photos - photos, "foto", "fotos"));
  const description = characters(listing.description);
  add(
    "description",
    15,
    description >= COMPLETENESS_TARGETS.descriptionChars ? 1 : description >= COMPLETENESS_TARGETS.descriptionMinChars ? 7 / 15 : 0,
    `descrição com ${COMPLETENESS_TARGETS.descriptionChars}+ caracteres`,
  );
  add("price", 10, given(listing.price) ? 1 : 0, "preço");
  add("area", 10, given(listing.area) || given(listing.total_area) ? 1 : 0, "área");
  if (only(listing.type, ["casa", "apartamento"])) add("bedrooms", 5, given(listing.bedrooms) ? 1 : 0, "quartos");
  if (only(listing.type, ["casa", "apartamento", "ponto_comercial"])) add("bathrooms", 5, given(listing.bathrooms) ? 1 : 0, "banheiros");
  if (only(listing.type, ["apartamento"])) add("condo_fee", 5, given(listing.condo_fee) ? 1 : 0, "condomínio");
  add("iptu", 5, given(listing.iptu_yearly) ? 1 : 0, "IPTU");
  const features = new Set(listing.features).size;
  add("features", 10, features / COMPLETENESS_TARGETS.features, plural(COMPLETENESS_TARGETS.features - features, "característica", "características"));
  const street = filled(listing.street_address);
  const cep = filled(listing.cep);
  add("address", 5, (Number(street) + Number(cep)) / 2, street ? "CEP" : cep ? "endereço" : "endereço e CEP");
  add("video", 5, filled(listing.video_url) || filled(listing.tour_url) ? 1 : 0, "vídeo ou tour 360°");

  const possible = checks.reduce((sum, check) => sum + check.weight, 0);
  const earned = checks.reduce((sum, check) => sum + check.earned, 0);
  // Floored (with a hair of tolerance for float sums): 100% only when nothing is missing.
  const percent = Math.floor((earned / possible) * 100 + 1e-9);
  // Biggest gain first.
  const missing = checks
    .filter((check) => check.missing !== null)
    .sort((a, b) => b.weight - b.earned - (a.weight - a.earned))
    .map((check) => check.missing!);
  return { percent, checks, missing };
}

/** "Anúncio 70% completo — falta: 5 fotos, IPTU" (at most `limit` items, then "e mais N"). */
export function completenessText({ percent, missing }: Completeness, limit = Number.POSITIVE_INFINITY): string {
  if (missing.length === 0) return `Anúncio ${percent}% completo`;
  const shown = missing.slice(0, limit);
  const rest = missing.length - shown.length;
  return `Anúncio ${percent}% completo — falta: ${shown.join(", ")}${rest > 0 ? ` e mais ${rest}` : ""}`;
}
