import { maskBRLInput, parseBRLInput, priceToInput } from "~/lib/money";
import type { CompletenessInput } from "../../completeness";
import type { PropertyFormInput } from "../../crm-schema";
import type { CrmProperty } from "../../crm.server";

/**
 * The property dialog's model: its sections (in the order they appear, which is also the order the
 * first error is looked for), the values a dialog opens with, and the form's raw values read the
 * way the completeness meter needs them.
 */

export type FieldName = keyof PropertyFormInput;

export const SECTIONS = [
  { id: "basico", label: "Básico", fields: ["codigo", "title", "description", "type", "purpose", "status", "featured", "broker_partner"] },
  {
    id: "valores",
    label: "Valores",
    fields: ["price", "condo_fee", "iptu_yearly", "accepts_financing", "accepts_fgts", "accepts_exchange", "rental_guarantees"],
  },
  {
    id: "caracteristicas",
    label: "Características",
    fields: ["area", "total_area", "bedrooms", "suites", "bathrooms", "parking_spaces", "year_built", "furnished", "pets_allowed", "features"],
  },
  { id: "condominio", label: "Condomínio", fields: ["floor", "total_floors"] },
  {
    id: "localizacao",
    label: "Localização",
    fields: ["neighborhood", "city", "state", "street_address", "address_number", "address_complement", "cep", "display_address", "latitude", "longitude"],
  },
  { id: "midia", label: "Mídia", fields: ["images", "video_url", "tour_url"] },
  { id: "portais", label: "Portais", fields: ["publish_to_portals"] },
] as const satisfies readonly { id: string; label: string; fields: readonly FieldName[] }[];

export type SectionId = (typeof SECTIONS)[number]["id"];

/** Every field, section by section: the first failing one is the one the toast names (spec §5). */
export const FIELD_ORDER: FieldName[] = SECTIONS.flatMap((section) => [...section.fields]);

export const sectionOf = (field: string): SectionId | null => SECTIONS.find((section) => (section.fields as readonly string[]).includes(field))?.id ?? null;

export const sectionDomId = (id: SectionId) => `secao-${id}`;

/** A yes/no/unsaid as the radio buttons hold it. */
const triState = (value: boolean | null | undefined) => (value === true ? "true" : value === false ? "false" : "");
const text = (value: number | string | null | undefined) => (value === null || value === undefined ? "" : String(value));
const money = (value: number | null | undefined) => (value ? priceToInput(value) : "");

export function defaultsFor(property?: CrmProperty): PropertyFormInput {
  return {
    codigo: property?.codigo ?? "",
    title: property?.title ?? "",
    description: property?.description ?? "",
    type: property?.type ?? "",
    purpose: property?.purpose ?? "",
    status: property?.status ?? "disponivel",
    featured: property?.featured ?? false,
    price: property ? priceToInput(property.price) : "0,00",
    area: text(property?.area),
    bedrooms: text(property?.bedrooms),
    bathrooms: text(property?.bathrooms),
    parking_spaces: text(property?.parking_spaces),
    neighborhood: property?.neighborhood ?? "",
    city: property?.city ?? "Natal",
    state: property?.state ?? "RN",
    broker_partner: property?.broker_partner ?? "",
    images: property?.images ?? [],
    // On for a new listing: the portals are where most buyers search (issue 13).
    publish_to_portals: property?.publish_to_portals ?? true,
    street_address: property?.street_address ?? "",
    cep: property?.cep ?? "",
    display_address: property?.display_address ?? false,
    // Issue 22.
    condo_fee: money(property?.condo_fee),
    iptu_yearly: money(property?.iptu_yearly),
    accepts_financing: triState(property?.accepts_financing),
    accepts_fgts: triState(property?.accepts_fgts),
    accepts_exchange: triState(property?.accepts_exchange),
    rental_guarantees: property?.rental_guarantees ?? [],
    suites: text(property?.suites),
    total_area: text(property?.total_area),
    floor: text(property?.floor),
    total_floors: text(property?.total_floors),
    year_built: text(property?.year_built),
    furnished: property?.furnished ?? "",
    pets_allowed: triState(property?.pets_allowed),
    features: property?.features ?? [],
    address_number: property?.address_number ?? "",
    address_complement: property?.address_complement ?? "",
    latitude: text(property?.latitude),
    longitude: text(property?.longitude),
    video_url: property?.video_url ?? "",
    tour_url: property?.tour_url ?? "",
  };
}

/** A money field as typed: digits become reais and cents ("85000" → "850,00"); empty stays empty. */
export const maskOptionalMoney = (raw: string) => (raw.replace(/\D/g, "") === "" ? "" : maskBRLInput(raw));

const loose = (value: unknown): number | null => {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || value.trim() === "") return null;
  const number = value.includes(",") ? parseBRLInput(value) : Number(value.trim());
  return Number.isFinite(number) ? number : null;
};
const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);
const string = (value: unknown) => (typeof value === "string" ? value : "");

/** The form's values as typed, read leniently (a half-typed number counts as not given). */
export function completenessFromForm(values: Partial<PropertyFormInput>): CompletenessInput {
  return {
    type: (string(values.type) || null) as CompletenessInput["type"],
    purpose: (string(values.purpose) || null) as CompletenessInput["purpose"],
    price: loose(values.price),
    description: string(values.description),
    images: list(values.images),
    area: loose(values.area),
    total_area: loose(values.total_area),
    bedrooms: loose(values.bedrooms),
    bathrooms: loose(values.bathrooms),
    condo_fee: loose(values.condo_fee),
    iptu_yearly: loose(values.iptu_yearly),
    features: list(values.features),
    street_address: string(values.street_address),
    cep: string(values.cep),
    video_url: string(values.video_url),
    tour_url: string(values.tour_url),
  };
}
