import { PROPERTY_FEATURES, PROPERTY_PURPOSES, PROPERTY_TYPES, type PropertyFeature, type PropertyPurpose, type PropertyType } from "~/db/values";
import { PAGE_PARAM, searchText, withPage } from "~/lib/pagination";

/**
 * The public list's filters (spec §2 "List") and their place in the URL. The URL holds the
 * whole filter state, so a filtered list can be shared; only non-default values are written.
 */
export const FILTER_ALL = "all";
export const PRICE_MIN = 0;
export const PRICE_MAX = 5_000_000;
export const PRICE_STEP = 100_000;
export const BEDROOM_OPTIONS = ["1", "2", "3", "4+"] as const;
export const PARKING_OPTIONS = ["1", "2", "3", "4"] as const;
/** Cards per page of /imoveis: six rows of two, a page a phone scrolls in a few flicks. */
export const LIST_PAGE_SIZE = 12;
/** Every query parameter /imoveis understands (a page cache may drop any other). */
export const LIST_QUERY_PARAMS = [
  "codigo", "tipo", "finalidade", "bairro", "quartos", "vagas", "preco_min", "preco_max",
  // Issue 22: the listing's own fields (decision 017).
  "suites", "area_min", "area_max", "condominio_max", "carac", "financiamento", "mobiliado", "vendidos",
  PAGE_PARAM,
] as const;
/** Minimum suítes offered by the filter. */
export const SUITE_OPTIONS = ["1", "2", "3", "4"] as const;
/** Área útil bounds (m²) and the condomínio's ceiling (R$/month) a URL may carry; beyond: ignored. */
export const AREA_LIMIT = 100_000;
export const CONDO_FEE_LIMIT = 100_000;
/** The features shown beside the other filters; the rest sit under 'Mais filtros'. */
export const COMMON_FEATURES = ["piscina", "varanda", "ar_condicionado", "academia"] as const satisfies readonly PropertyFeature[];
/** A listing's code is 1–50 characters (spec §6); a longer search cannot match one. */
export const CODIGO_MAX = 50;
export const CODIGO_TOO_LONG = `O código tem no máximo ${CODIGO_MAX} caracteres. Confira e busque de novo.`;

export type ListFilters = {
  /** Part of a listing's code, upper-cased as codes are stored ("" = any). */
  codigo: string;
  tipo: PropertyType | typeof FILTER_ALL;
  finalidade: PropertyPurpose | typeof FILTER_ALL;
  bairro: string;
  /** Exact number of bedrooms; "4+" means four or more. */
  quartos: (typeof BEDROOM_OPTIONS)[number] | typeof FILTER_ALL;
  /** Minimum parking spaces. */
  vagas: (typeof PARKING_OPTIONS)[number] | typeof FILTER_ALL;
  precoMin: number;
  /** PRICE_MAX means "R$ 5.000.000+": no upper bound. */
  precoMax: number;
  /** Minimum suítes. */
  suites: (typeof SUITE_OPTIONS)[number] | typeof FILTER_ALL;
  /** Área útil in m², whole numbers (null = no bound). */
  areaMin: number | null;
  areaMax: number | null;
  /** Highest condomínio per month, R$ (null = any; listings that said none are left out when set). */
  condominioMax: number | null;
  /** Features the listing must all have: known keys, each once, sorted (one URL per choice). */
  carac: PropertyFeature[];
  /** Only listings whose owner said 'aceita financiamento' (a yes; "not said" is not a yes). */
  financiamento: boolean;
  /** Only furnished listings ('mobiliado'; semimobiliado is not). */
  mobiliado: boolean;
  /** Sold and rented listings too (they leave the list by default: decision 002). */
  vendidos: boolean;
};

export const DEFAULT_FILTERS: ListFilters = {
  codigo: "",
  tipo: FILTER_ALL,
  finalidade: FILTER_ALL,
  bairro: "",
  quartos: FILTER_ALL,
  vagas: FILTER_ALL,
  precoMin: PRICE_MIN,
  precoMax: PRICE_MAX,
  suites: FILTER_ALL,
  areaMin: null,
  areaMax: null,
  condominioMax: null,
  carac: [],
  financiamento: false,
  mobiliado: false,
  vendidos: false,
};

/** A whole number from 1 to `limit`, or null (empty, malformed, out of range: ignored like any bad filter). */
function wholeNumber(value: string | null, limit: number): number | null {
  if (value === null || !/^\s*\d{1,9}\s*$/.test(value)) return null;
  const number = Number(value);
  return number >= 1 && number <= limit ? number : null;
}

/** Repeated `carac` values: known keys only, each once, in a fixed order. */
function featureKeys(values: string[]): PropertyFeature[] {
  const chosen = new Set(values);
  return PROPERTY_FEATURES.filter((key) => chosen.has(key)).sort();
}

/** A switch in the URL: `1` is on, anything else off. */
const flag = (value: string | null) => value === "1";

function oneOf<T extends string>(value: string | null, options: readonly T[], fallback: T): T {
  return value !== null && (options as readonly string[]).includes(value) ? (value as T) : fallback;
}

function priceStep(value: string | null, fallback: number): number {
  if (value === null || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isFinite(number)) return fallback;
  const stepped = Math.round(number / PRICE_STEP) * PRICE_STEP;
  return Math.min(PRICE_MAX, Math.max(PRICE_MIN, stepped));
}

/** The neighbourhood typed by a visitor, as the database will compare it (see searchText). */
function neighbourhoodText(value: string | null): string {
  return searchText(value, 100);
}

/**
 * The code typed by a visitor, as the database will compare it: trimmed and upper-cased (codes
 * are stored upper-case). Too long for any code: cut, and `codigoTooLong` says so.
 */
function codigoText(value: string | null): string {
  return searchText(value, CODIGO_MAX).toUpperCase();
}

/** Whether the URL's `codigo` is longer than any listing's code can be (the page says so). */
export function codigoTooLong(params: URLSearchParams): boolean {
  return searchText(params.get("codigo"), CODIGO_MAX + 1).length > CODIGO_MAX;
}

/** Reads filters from a URL's query; anything unknown or malformed falls back to the default. */
export function parseListFilters(params: URLSearchParams): ListFilters {
  const filters: ListFilters = {
    codigo: codigoText(params.get("codigo")),
    tipo: oneOf(params.get("tipo"), [FILTER_ALL, ...PROPERTY_TYPES], FILTER_ALL),
    finalidade: oneOf(params.get("finalidade"), [FILTER_ALL, ...PROPERTY_PURPOSES], FILTER_ALL),
    bairro: neighbourhoodText(params.get("bairro")),
    quartos: oneOf(params.get("quartos"), [FILTER_ALL, ...BEDROOM_OPTIONS], FILTER_ALL),
    vagas: oneOf(params.get("vagas"), [FILTER_ALL, ...PARKING_OPTIONS], FILTER_ALL),
    precoMin: priceStep(params.get("preco_min"), PRICE_MIN),
    precoMax: priceStep(params.get("preco_max"), PRICE_MAX),
    suites: oneOf(params.get("suites"), [FILTER_ALL, ...SUITE_OPTIONS], FILTER_ALL),
    areaMin: wholeNumber(params.get("area_min"), AREA_LIMIT),
    areaMax: wholeNumber(params.get("area_max"), AREA_LIMIT),
    condominioMax: wholeNumber(params.get("condominio_max"), CONDO_FEE_LIMIT),
    carac: featureKeys(params.getAll("carac")),
    financiamento: flag(params.get("financiamento")),
    mobiliado: flag(params.get("mobiliado")),
    vendidos: flag(params.get("vendidos")),
  };
  if (filters.precoMin > filters.precoMax) {
    [filters.precoMin, filters.precoMax] = [filters.precoMax, filters.precoMin];
  }
  if (filters.areaMin !== null && filters.areaMax !== null && filters.areaMin > filters.areaMax) {
    [filters.areaMin, filters.areaMax] = [filters.areaMax, filters.areaMin];
  }
  return filters;
}

/** The query string for some filters, with only the non-default values ("" when none). */
export function listSearchParams(filters: Partial<{ [K in keyof ListFilters]: ListFilters[K] | string | number }>): string {
  const params = new URLSearchParams();
  const merged = { ...DEFAULT_FILTERS, ...filters };
  const codigo = String(merged.codigo).trim();
  if (codigo) params.set("codigo", codigo);
  if (merged.tipo !== FILTER_ALL) params.set("tipo", String(merged.tipo));
  if (merged.finalidade !== FILTER_ALL) params.set("finalidade", String(merged.finalidade));
  const bairro = String(merged.bairro).trim();
  if (bairro) params.set("bairro", bairro);
  if (merged.quartos !== FILTER_ALL) params.set("quartos", String(merged.quartos));
  if (merged.vagas !== FILTER_ALL) params.set("vagas", String(merged.vagas));
  if (Number(merged.precoMin) !== PRICE_MIN) params.set("preco_min", String(merged.precoMin));
  if (Number(merged.precoMax) !== PRICE_MAX) params.set("preco_max", String(merged.precoMax));
  if (merged.suites !== FILTER_ALL) params.set("suites", String(merged.suites));
  if (merged.areaMin) params.set("area_min", String(merged.areaMin));
  if (merged.areaMax) params.set("area_max", String(merged.areaMax));
  if (merged.condominioMax) params.set("condominio_max", String(merged.condominioMax));
  // Sorted and each once (parseListFilters has checked the keys): one URL, one cache entry, per choice.
  if (Array.isArray(merged.carac)) for (const key of [...new Set(merged.carac)].sort()) params.append("carac", key);
  if (merged.financiamento === true) params.set("financiamento", "1");
  if (merged.mobiliado === true) params.set("mobiliado", "1");
  if (merged.vendidos === true) params.set("vendidos", "1");
  return params.toString();
}

/** The address of one page of the list with these filters (page 1 has no `pagina`). */
export function listPageHref(filters: ListFilters, page: number): string {
  return `/imoveis${withPage(listSearchParams(filters), page)}`;
}

export function hasActiveFilters(filters: ListFilters): boolean {
  return listSearchParams(filters) !== "";
}
