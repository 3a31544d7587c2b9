import type { PropertyStatus } from "~/db/values";
import { showableImages } from "~/features/media/urls";

/**
 * Which listings go to the portals' feed (ZAP Imóveis, VivaReal, OLX; issue 13), and why the
 * others do not — one rule for the feed and for the CRM's "Fora dos portais" note. Pure: shared
 * by the server and the CRM's table.
 *
 * The portals' documented limits (Grupo OLX, VRSync, developers.grupozap.com/feeds/vrsync/):
 * - Title: "são esperados entre 10 e 100 caracteres" (elements/listing). A longer title is cut by
 *   the feed (portalTitle below); a shorter one is left out, with its reason.
 * - Description: between 50 and 3,000 characters (elements/details, as integrators quote it;
 *   ours are at most 2,000). We count characters (code points) of the trimmed text.
 * - A price (ListPrice or RentalPrice, whole reais) and at least one photo: a listing without
 *   either is refused by the portals' import.
 */

export const PORTAL_TITLE_MIN = 10;
export const PORTAL_TITLE_MAX = 100;
export const PORTAL_DESCRIPTION_MIN = 50;

export const PORTAL_REASONS = {
  switchedOff: "Desativado para portais",
  notAvailable: "Não disponível",
  noPhoto: "Sem foto",
  shortDescription: `Descrição com menos de ${PORTAL_DESCRIPTION_MIN} caracteres`,
  noPrice: "Sem preço",
  shortTitle: `Título com menos de ${PORTAL_TITLE_MIN} caracteres`,
} as const;

export type PortalReason = (typeof PORTAL_REASONS)[keyof typeof PORTAL_REASONS];

/** What the rules look at (a row of `properties`, or the CRM's copy of it). */
export type PortalCandidate = {
  status: PropertyStatus;
  publish_to_portals: boolean;
  images: readonly string[];
  title: string;
  description: string;
  price: number | string;
};

/** Characters as a person counts them (an emoji is one), not UTF-16 units. */
export const characterCount = (text: string) => [...text.trim()].length;

/** The title the feed sends: at most 100 characters, cut with "…" (never half of an emoji). */
export function portalTitle(title: string): string {
  const characters = [...title.trim()];
  if (characters.length <= PORTAL_TITLE_MAX) return characters.join("");
  return `${characters.slice(0, PORTAL_TITLE_MAX - 1).join("").trimEnd()}…`;
}

/** The price the feed sends: whole reais (the portals refuse decimals). */
export const portalPrice = (price: number | string) => Math.round(Number(price));

/** Why a listing is not in the feed, in the CRM's words; empty when it is in. */
export function portalExclusionReasons(listing: PortalCandidate): PortalReason[] {
  const reasons: PortalReason[] = [];
  if (!listing.publish_to_portals) reasons.push(PORTAL_REASONS.switchedOff);
  if (listing.status !== "disponivel") reasons.push(PORTAL_REASONS.notAvailable);
  if (showableImages(listing.images).length === 0) reasons.push(PORTAL_REASONS.noPhoto);
  if (characterCount(listing.description) < PORTAL_DESCRIPTION_MIN) reasons.push(PORTAL_REASONS.shortDescription);
  const price = portalPrice(listing.price);
  if (!Number.isFinite(price) || price < 1) reasons.push(PORTAL_REASONS.noPrice);
  if (characterCount(listing.title) < PORTAL_TITLE_MIN) reasons.push(PORTAL_REASONS.shortTitle);
  return reasons;
}

export const isInPortalFeed = (listing: PortalCandidate) => portalExclusionReasons(listing).length === 0;
