import { groupedFeatures } from "~/features/properties/features";
import { FURNISHED_LABELS, PURPOSE_LABELS, RENTAL_GUARANTEE_LABELS, STATUS_LABELS, TYPE_LABELS, priceText } from "~/features/properties/labels";
import { acceptsTexts, areaText, condoFeeText, floorText, iptuTexts, monthlyCost, yesNoText } from "~/features/properties/listing-format";
import type { BrokerProfile } from "~/features/site/broker-profile";
import { formatBRL } from "~/lib/format";
import type { FichaListing } from "./ficha-data.server";

/**
 * The ficha's words, decided apart from the drawing (ficha-pdf.server.ts): every line the PDF
 * shows, as plain strings, so a unit test reads them without a PDF. Empty values give no line,
 * as on the property page.
 */

export type Pair = { label: string; value: string };

export type FichaContent = {
  siteName: string;
  codigo: string;
  title: string;
  /** "Apartamento · Venda" (and the status when not available). */
  kind: string;
  /** "Ponta Negra, Natal/RN". */
  place: string;
  /** Street, number, complement and CEP; null when the address is hidden (public) or unknown. */
  address: string | null;
  values: Pair[];
  facts: Pair[];
  /** "Aceita financiamento", "Garantias: Fiador, Caução"… */
  conditions: string[];
  features: { label: string; items: string[] }[];
  description: string;
  broker: { name: string; creci: string; phone: string; email: string };
  url: string;
};

const pair = (label: string, value: string | null | undefined): Pair | null => (value ? { label, value } : null);
const present = <T>(items: (T | null)[]) => items.filter((item): item is T => item !== null);
const count = (value: number | null) => (value ? String(value) : null);

export function fichaContent(listing: FichaListing, broker: BrokerProfile, url: string): FichaContent {
  const iptu = iptuTexts(listing.iptu_yearly);
  const cost = monthlyCost(listing);
  const rent = listing.purpose === "aluguel";
  const values = present([
    pair(rent ? "Aluguel" : "Valor de venda", priceText(listing.price, listing.purpose)),
    pair("Condomínio", condoFeeText(listing.condo_fee)),
    pair("IPTU", iptu && `${iptu.yearly} (${iptu.monthly})`),
    // A rent's monthly total only means something with a cost beside the rent.
    rent && cost && cost.rent !== null && (cost.condoFee !== null || cost.iptuMonthly !== null)
      ? pair("Total mensal", `${formatBRL(cost.total)}/mês`)
      : null,
  ]);
  const facts = present([
    pair("Quartos", count(listing.bedrooms)),
    pair("Suítes", count(listing.suites)),
    pair("Banheiros", count(listing.bathrooms)),
    pair("Vagas", count(listing.parking_spaces)),
    pair(listing.type === "terreno" ? "Área do terreno" : "Área útil", areaText(listing.area)),
    pair("Área total", areaText(listing.total_area)),
    pair("Andar", floorText(listing.floor, listing.total_floors)),
    pair("Ano de construção", listing.year_built ? String(listing.year_built) : null),
    pair("Mobília", listing.furnished ? FURNISHED_LABELS[listing.furnished] : null),
    pair("Aceita pets", yesNoText(listing.pets_allowed)),
  ]);
  const guarantees = listing.rental_guarantees.map((key) => RENTAL_GUARANTEE_LABELS[key]).filter(Boolean);
  const conditions = [...acceptsTexts(listing), ...(guarantees.length ? [`Garantias: ${guarantees.join(", ")}`] : [])];
  const street = listing.street_address
    ? [listing.street_address, listing.address_number, listing.address_complement].filter(Boolean).join(", ")
    : null;
  const address = [street, listing.cep && `CEP ${listing.cep}`].filter(Boolean).join(" · ") || null;
  return {
    siteName: broker.siteName,
    codigo: listing.codigo,
    title: listing.title,
    kind: [TYPE_LABELS[listing.type], PURPOSE_LABELS[listing.purpose], listing.status !== "disponivel" ? STATUS_LABELS[listing.status] : null]
      .filter(Boolean)
      .join(" · "),
    place: `${listing.neighborhood}, ${listing.city}/${listing.state}`,
    address,
    values,
    facts,
    conditions,
    features: groupedFeatures(listing.features).map((group) => ({ label: group.label, items: group.features.map((feature) => feature.label) })),
    description: listing.description.trim(),
    broker: { name: broker.name, creci: broker.creci, phone: broker.phone, email: broker.email },
    url,
  };
}
