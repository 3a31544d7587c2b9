import type { PropertyPurpose, PropertyType } from "~/db/values";
import { priceText } from "~/features/properties/labels";
import { serializeJsonLd } from "~/features/properties/structured-data";
import type { PropertyCardData } from "~/features/properties/types";
import { formatBRL } from "~/lib/format";
import type { NeighbourhoodPageData, NeighbourhoodSummary, PurposeStats } from "./queries.server";

/**
 * The neighbourhood pages as their components show them: every word and number formatted here,
 * on the server, so the public route modules stay plain renderers (JavaScript budget, decision 003).
 */

const TYPE_PLURAL: Record<PropertyType, [one: string, many: string]> = {
  casa: ["Casa", "Casas"],
  apartamento: ["Apartamento", "Apartamentos"],
  terreno: ["Terreno", "Terrenos"],
  ponto_comercial: ["Ponto comercial", "Pontos comerciais"],
};
const PURPOSE_WORDS: Record<PropertyPurpose, string> = { venda: "à venda", aluguel: "para alugar" };
const PURPOSE_HEADINGS: Record<PropertyPurpose, string> = { venda: "Venda", aluguel: "Aluguel" };

export const countText = (n: number) => `${n} ${n === 1 ? "imóvel" : "imóveis"}`;

/** "R$ 450.000 a R$ 1.200.000", "R$ 2.300 a R$ 4.000/mês", one price when both ends meet, or 'Sob consulta'. */
export function priceRangeText(minPrice: number | null, maxPrice: number | null, purpose: PropertyPurpose): string {
  if (minPrice === null || maxPrice === null) return "Sob consulta";
  if (minPrice === maxPrice) return priceText(maxPrice, purpose);
  return `${formatBRL(minPrice)} a ${priceText(maxPrice, purpose)}`;
}

/** "12 imóveis: 8 à venda e 4 para alugar". */
export function purposeSummary(summary: Pick<NeighbourhoodSummary, "total" | "sale" | "rent">): string {
  const parts = [summary.sale ? `${summary.sale} à venda` : null, summary.rent ? `${summary.rent} para alugar` : null].filter(Boolean);
  return `${countText(summary.total)}${parts.length ? `: ${parts.join(" e ")}` : ""}`;
}

export type NeighbourhoodStatRow = { label: string; count: string; range: string };

export type NeighbourhoodPageView = {
  name: string;
  slug: string;
  /** "Natal/RN" */
  place: string;
  summary: string;
  text: string | null;
  ranges: NeighbourhoodStatRow[];
  stats: NeighbourhoodStatRow[];
  listings: PropertyCardData[];
  /** When the page shows only the first cards: how many in all, and the filtered list. */
  more: { text: string; href: string } | null;
  /** Meta description (search results, link previews). */
  description: string;
  /** The page's JSON-LD, serialised (a '<' in a name cannot end the script element). */
  jsonLd: string;
};

const rangeRow = (row: PurposeStats): NeighbourhoodStatRow => ({
  label: PURPOSE_HEADINGS[row.purpose],
  count: countText(row.count),
  range: priceRangeText(row.minPrice, row.maxPrice, row.purpose),
});

export function neighbourhoodPageView(data: NeighbourhoodPageData, publicUrl: string, siteName: string): NeighbourhoodPageView {
  const { neighbourhood } = data;
  const place = `${neighbourhood.city}/${neighbourhood.state}`;
  const url = `${publicUrl}/imoveis/bairro/${neighbourhood.slug}`;
  const ranges = data.byPurpose.map(rangeRow);
  const rangeWords = data.byPurpose
    .filter((row) => row.minPrice !== null)
    .map((row) => `${row.purpose === "venda" ? "venda" : "aluguel"} de ${priceRangeText(row.minPrice, row.maxPrice, row.purpose)}`);
  const description = `${purposeSummary(neighbourhood)} em ${neighbourhood.name}, ${place}${rangeWords.length ? ` (${rangeWords.join("; ")})` : ""}. ${data.text ?? `Veja fotos, preços e detalhes com ${siteName}.`}`
    .replace(/\s+/g, " ")
    .slice(0, 300);
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "CollectionPage",
    name: `Imóveis em ${neighbourhood.name}, ${place}`,
    description,
    url,
    about: {
      "@type": "Place",
      name: neighbourhood.name,
      address: { "@type": "PostalAddress", addressLocality: neighbourhood.city, addressRegion: neighbourhood.state, addressCountry: "BR" },
    },
    mainEntity: {
      "@type": "ItemList",
      numberOfItems: neighbourhood.total,
      itemListElement: data.listings.map((listing, index) => ({
        "@type": "ListItem",
        position: index + 1,
        url: `${publicUrl}/imoveis/${listing.id}`,
        name: listing.title,
      })),
    },
  };
  return {
    name: neighbourhood.name,
    slug: neighbourhood.slug,
    place,
    summary: purposeSummary(neighbourhood),
    text: data.text,
    ranges,
    stats: data.byTypeAndPurpose.map((row) => ({
      label: `${TYPE_PLURAL[row.type][row.count === 1 ? 0 : 1]} ${PURPOSE_WORDS[row.purpose]}`,
      count: String(row.count),
      range: priceRangeText(row.minPrice, row.maxPrice, row.purpose),
    })),
    listings: data.listings,
    more:
      neighbourhood.total > data.listings.length
        ? { text: `Ver todos os ${neighbourhood.total} imóveis em ${neighbourhood.name}`, href: `/imoveis?bairro=${encodeURIComponent(neighbourhood.name)}` }
        : null,
    description,
    jsonLd: serializeJsonLd(jsonLd),
  };
}

export type NeighbourhoodIndexItem = { name: string; href: string; place: string; summary: string };

/** The index page (/imoveis/bairros): every neighbourhood, by name. */
export function neighbourhoodIndexView(list: NeighbourhoodSummary[]): NeighbourhoodIndexItem[] {
  return list.map((neighbourhood) => ({
    name: neighbourhood.name,
    href: `/imoveis/bairro/${neighbourhood.slug}`,
    place: `${neighbourhood.city}/${neighbourhood.state}`,
    summary: purposeSummary(neighbourhood),
  }));
}
