import type { IconName } from "~/components/icons/names";
import { PROPERTY_FEATURES, type PropertyFeature } from "~/db/values";
import { FEATURES, groupedFeatures } from "./features";
import { COMMON_FEATURES } from "./filters";
import { FURNISHED_LABELS, priceText, RENTAL_GUARANTEE_LABELS } from "./labels";
import { acceptsTexts, areaText, condoFeeText, floorText, iptuTexts, monthlyCost, monthlyTotalText, yesNoText } from "./listing-format";
import type { PublicListingDetails, PublicPropertyDetail } from "./types";

/**
 * What the property page shows of a listing's issue-22 fields (decision 017), as ready strings:
 * the loader builds it on the server and the components only render it, so no formatter, label
 * table or feature catalogue reaches the page's JavaScript. Empty values are left out: a page
 * shows nothing where the broker said nothing.
 */

export type PresentedValue = { label: string; value: string; note?: string };
export type PresentedFact = { label: string; value: string };
export type PresentedFeatureGroup = { label: string; features: { label: string; icon: IconName }[] };

export type ListingPresentation = {
  /** 'Valores': price, condomínio, IPTU (per year, with the month's share), a rent's monthly total. */
  values: PresentedValue[];
  /** Suítes, área total, andar, ano, mobília, pets, garantias (rents). */
  facts: PresentedFact[];
  /** 'Aceita financiamento', 'Aceita FGTS', 'Aceita permuta' (sales). */
  badges: string[];
  /** 'Do imóvel' and 'Do condomínio', each with its icons; empty groups left out. */
  features: PresentedFeatureGroup[];
};

type Listing = Pick<PublicPropertyDetail, "purpose" | "price"> & PublicListingDetails;

const entry = <T extends { value: string }>(value: string | null, make: (value: string) => T): T[] => (value ? [make(value)] : []);

export function listingPresentation(listing: Listing): ListingPresentation {
  const rental = listing.purpose === "aluguel";
  const iptu = iptuTexts(listing.iptu_yearly);
  const cost = monthlyCost(listing);
  const values: PresentedValue[] = [
    { label: rental ? "Aluguel" : "Valor de venda", value: priceText(listing.price, listing.purpose) },
    ...entry(condoFeeText(listing.condo_fee), (value) => ({ label: "Condomínio", value })),
    ...entry(iptu?.yearly ?? null, (value) => ({ label: "IPTU", value, note: `${iptu!.monthly} em média` })),
    // A rent's total only when it adds something to the rent itself.
    ...(rental && cost && (cost.condoFee !== null || cost.iptuMonthly !== null)
      ? entry(monthlyTotalText(listing), (value) => ({ label: "Total mensal", value, note: "Aluguel + condomínio + IPTU" }))
      : []),
  ];

  const guarantees = rental ? listing.rental_guarantees.map((key) => RENTAL_GUARANTEE_LABELS[key]).filter(Boolean) : [];
  const count = (value: number | null) => (value && value > 0 ? String(value) : null);
  const facts: PresentedFact[] = [
    ...entry(count(listing.suites), (value) => ({ label: "Suítes", value })),
    ...entry(areaText(listing.total_area), (value) => ({ label: "Área total", value })),
    ...entry(floorText(listing.floor, listing.total_floors), (value) => ({ label: "Andar", value })),
    ...entry(count(listing.year_built), (value) => ({ label: "Ano de construção", value })),
    ...entry(listing.furnished ? FURNISHED_LABELS[listing.furnished] : null, (value) => ({ label: "Mobília", value })),
    ...entry(yesNoText(listing.pets_allowed), (value) => ({ label: "Aceita animais", value })),
    ...entry(guarantees.length ? guarantees.join(", ") : null, (value) => ({ label: guarantees.length > 1 ? "Garantias" : "Garantia", value })),
  ];

  return {
    values,
    facts,
    badges: rental ? [] : acceptsTexts(listing),
    features: groupedFeatures(listing.features).map((group) => ({
      label: group.label,
      // Every catalogue icon is in the sprite (listing-facts.test.ts checks it).
      features: group.features.map((feature) => ({ label: feature.label, icon: feature.icon as IconName })),
    })),
  };
}

/**
 * The features /imoveis filters on, labelled: the common ones beside the other filters, the rest
 * under 'Mais filtros' (by label). Built by the loader, so the catalogue stays out of the page's script.
 */
export function featureFilterOptions(): { common: { key: string; label: string }[]; more: { key: string; label: string }[] } {
  const option = (key: PropertyFeature) => ({ key, label: FEATURES[key].label });
  const common = new Set<string>(COMMON_FEATURES);
  return {
    common: COMMON_FEATURES.map(option),
    more: PROPERTY_FEATURES.filter((key) => !common.has(key))
      .map(option)
      .sort((a, b) => a.label.localeCompare(b.label, "pt-BR")),
  };
}
