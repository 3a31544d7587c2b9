import type { PropertyPurpose, PropertyType } from "~/db/values";
import { showableImages } from "~/features/media/urls";
import { parseVideoLink } from "./media-links";

/**
 * What ZAP Imóveis, VivaReal and OLX will refuse in a listing, or rank lower for (issue 22, item 7;
 * decision 022). One pure function for the CRM form's 'Portais' section (as the broker types) and
 * the CRM list's badge, so both always agree. Two severities:
 *
 * - 'rejeita': the portals' import refuses the listing (our feed leaves it out too, feed-rules.ts):
 *   no photo, a title under 10 or a description under 50 characters, no price, no area.
 * - 'reduz nota': published, but its quality score drops (the portals ask for 5 photos at least,
 *   the CEP to place it, the condomínio of a flat, the IPTU, the rooms of a home; a video only
 *   from YouTube, the one host their feed plays).
 *
 * The portals do not publish their score in detail: these follow their documentation for the
 * VRSync feed (developers.grupozap.com) as integrators quote it, the same sources as
 * completeness.ts, whose weights say how much each counts.
 */

export type PortalIssueSeverity = "rejeita" | "reduz nota";
export type PortalIssue = { key: string; severity: PortalIssueSeverity; message: string };

export const PORTAL_MIN_PHOTOS = 5;
const TITLE_MIN = 10;
const DESCRIPTION_MIN = 50;

export type PortalIssuesInput = {
  type: PropertyType | "" | null | undefined;
  purpose?: PropertyPurpose | "" | null;
  title?: string | null;
  description: string;
  price: number | null | undefined;
  images: readonly string[];
  area: number | null | undefined;
  total_area: number | null | undefined;
  bedrooms: number | null | undefined;
  bathrooms: number | null | undefined;
  condo_fee: number | null | undefined;
  iptu_yearly: number | null | undefined;
  cep: string | null | undefined;
  video_url: string | null | undefined;
};

const given = (value: number | null | undefined) => typeof value === "number" && Number.isFinite(value) && value > 0;
const characters = (text: string | null | undefined) => [...(text ?? "").trim()].length;

export function portalIssues(listing: PortalIssuesInput): PortalIssue[] {
  const issues: PortalIssue[] = [];
  const add = (key: string, severity: PortalIssueSeverity, message: string) => issues.push({ key, severity, message });
  const home = listing.type === "casa" || listing.type === "apartamento";

  const photos = showableImages(listing.images).length;
  if (photos === 0) add("photos", "rejeita", "Sem fotos: os portais recusam anúncio sem foto");
  else if (photos < PORTAL_MIN_PHOTOS)
    add("photos", "reduz nota", `${photos} ${photos === 1 ? "foto" : "fotos"}: os portais pedem pelo menos ${PORTAL_MIN_PHOTOS}`);

  if (listing.title !== undefined && characters(listing.title) < TITLE_MIN)
    add("title", "rejeita", `Título com menos de ${TITLE_MIN} caracteres`);
  if (characters(listing.description) < DESCRIPTION_MIN)
    add("description", "rejeita", `Descrição com menos de ${DESCRIPTION_MIN} caracteres`);
  if (!given(listing.price))
    add("price", "rejeita", listing.purpose === "aluguel" ? "Sem valor de aluguel: os portais não aceitam 'Sob consulta'" : "Sem preço de venda: os portais não aceitam 'Sob consulta'");
  if (!given(listing.area) && !given(listing.total_area)) add("area", "rejeita", "Sem área: informe a área útil ou a total");

  if (!listing.cep?.trim()) add("cep", "reduz nota", "Sem CEP: o portal não localiza o imóvel no mapa");
  if (listing.type === "apartamento" && !given(listing.condo_fee)) add("condo_fee", "reduz nota", "Apartamento sem valor de condomínio");
  if (!given(listing.iptu_yearly)) add("iptu", "reduz nota", "Sem IPTU");
  if (home && !given(listing.bedrooms)) add("bedrooms", "reduz nota", "Sem número de quartos");
  if (listing.type !== "terreno" && listing.type && !given(listing.bathrooms)) add("bathrooms", "reduz nota", "Sem número de banheiros");

  if (listing.video_url?.trim()) {
    const video = parseVideoLink(listing.video_url);
    if (video?.provider !== "youtube") add("video", "reduz nota", "Vídeo fora do YouTube: os portais só aceitam vídeos do YouTube, e ele não vai no feed");
  }
  return issues;
}

/** "2 recusas, 3 alertas" for a badge; null when there is nothing to say. */
export function portalIssuesSummary(issues: readonly PortalIssue[]): { text: string; rejected: boolean } | null {
  if (issues.length === 0) return null;
  const rejections = issues.filter((issue) => issue.severity === "rejeita").length;
  const warnings = issues.length - rejections;
  const parts = [
    rejections ? `${rejections} ${rejections === 1 ? "recusa" : "recusas"}` : null,
    warnings ? `${warnings} ${warnings === 1 ? "alerta" : "alertas"}` : null,
  ].filter(Boolean);
  return { text: parts.join(", "), rejected: rejections > 0 };
}
