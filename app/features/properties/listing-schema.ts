import * as z from "zod/mini";
import { FURNISHED_VALUES, PROPERTY_FEATURES, RENTAL_GUARANTEES } from "~/db/values";
import { parseBRLInput } from "~/lib/money";
import { optionalText } from "~/lib/validation";
import { normalizeTourLink, parseVideoLink } from "./media-links";

/**
 * Rules for the listing's fields added by issue 22 (condomínio, IPTU, suítes, área total, andar,
 * ano, mobília, aceita…, garantias, características, número, complemento, posição, vídeo, tour).
 * All optional: empty means "not said" and is stored as null (an empty list for the lists). They
 * accept what a form sends (strings, "on", repeated keys) as well as JSON. crm-schema.ts puts them
 * in the property form's schema, with the rules that compare two fields.
 */

export const LISTING_LIMITS = {
  /** Condomínio, R$ per month. */
  condoFee: 100_000,
  /** IPTU, R$ per year. */
  iptuYearly: 1_000_000,
  /** Andar and total de andares (Brazil's tallest towers have ~90 floors). */
  floors: 200,
  yearBuiltMin: 1850,
  /** A launch may be sold up to five years before it is built. */
  yearBuiltAhead: 5,
  addressNumber: 20,
  addressComplement: 100,
  /** Área útil at most this many times the área total (a house on a small plot has a few floors). */
  areaRatio: 5,
} as const;

/** The positions a listing can have: Brazil, islands included (a swapped latitude falls outside). */
export const BRAZIL_BOUNDS = { latitude: [-34, 6], longitude: [-74, -28] } as const;

export const latestYearBuilt = (now = new Date()) => now.getUTCFullYear() + LISTING_LIMITS.yearBuiltAhead;

const formatLimit = (value: number) => new Intl.NumberFormat("pt-BR").format(value);

export const LISTING_MESSAGES = {
  condoFee: "Condomínio inválido",
  condoFeeMax: `Condomínio deve ser no máximo R$ ${formatLimit(LISTING_LIMITS.condoFee)} por mês`,
  iptu: "IPTU inválido",
  iptuMax: `IPTU deve ser no máximo R$ ${formatLimit(LISTING_LIMITS.iptuYearly)} por ano`,
  suites: "Quantidade de suítes inválida",
  suitesMax: "Quantidade de suítes deve ser no máximo 999",
  suitesOverBedrooms: "Suítes não podem ser mais que os quartos",
  totalArea: "Área total inválida",
  totalAreaMax: "Área total deve ser no máximo 10.000.000 m²",
  areaRatio: `Área útil maior que ${LISTING_LIMITS.areaRatio} vezes a área total: confira as duas áreas`,
  floor: "Andar inválido",
  floorMax: `Andar deve ser no máximo ${LISTING_LIMITS.floors}`,
  totalFloors: "Total de andares inválido",
  totalFloorsMax: `Total de andares deve ser no máximo ${LISTING_LIMITS.floors}`,
  floorOverTotal: "O andar não pode ser maior que o total de andares",
  yearBuilt: "Ano de construção inválido",
  yearBuiltRange: (latest: number) => `Ano de construção deve estar entre ${LISTING_LIMITS.yearBuiltMin} e ${latest}`,
  furnished: "Mobília inválida",
  petsAllowed: "Aceita animais inválido",
  acceptsFinancing: "Aceita financiamento inválido",
  acceptsFgts: "Aceita FGTS inválido",
  acceptsExchange: "Aceita permuta inválido",
  rentalGuarantees: "Garantia de locação inválida",
  features: "Característica inválida",
  addressNumberMax: "Número muito longo",
  addressNumberInvalid: "Número contém caracteres inválidos",
  addressComplementMax: "Complemento muito longo",
  addressComplementInvalid: "Complemento contém caracteres inválidos",
  latitude: "Latitude inválida",
  latitudeRange: `Latitude fora do Brasil: use um número entre ${BRAZIL_BOUNDS.latitude[0]} e ${BRAZIL_BOUNDS.latitude[1]}, como -5,88`,
  longitude: "Longitude inválida",
  longitudeRange: `Longitude fora do Brasil: use um número entre ${BRAZIL_BOUNDS.longitude[0]} e ${BRAZIL_BOUNDS.longitude[1]}, como -35,18`,
  coordinatesTogether: "Informe a latitude e a longitude juntas",
  videoUrl: "Vídeo: use o link de um vídeo do YouTube ou do Vimeo",
  tourUrl: "Tour 360°: use um link do Matterport, Kuula, CloudPano ou Momento360",
} as const;

const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === "string" && value.trim() === "");

const rawScalar = (message: string) =>
  z.optional(z.nullable(z.union([z.string({ error: message }), z.number({ error: message })], { error: message })));

/** R$ typed in the form's money mask ("1.250,00") or sent as a number; empty or zero is null. */
export function optionalMoney(messages: { invalid: string; max: string }, max: number) {
  return z
    .pipe(
      rawScalar(messages.invalid),
      z.transform((value) => {
        if (isBlank(value)) return null;
        const number = parseBRLInput(value as string | number);
        return number === 0 ? null : number;
      }),
    )
    .check(
      z.refine((value) => value === null || (Number.isFinite(value) && value > 0), { error: messages.invalid }),
      z.refine((value) => value === null || !Number.isFinite(value) || value <= max, { error: messages.max }),
    );
}

/** A whole number in [min, max]; empty is null, and so is zero unless `keepZero` (andar 0 = térreo). */
export function optionalInteger(messages: { invalid: string; max: string }, options: { min: number; max: number; keepZero?: boolean }) {
  return z
    .pipe(
      rawScalar(messages.invalid),
      z.transform((value) => {
        if (isBlank(value)) return null;
        const number = typeof value === "number" ? value : Number((value as string).trim());
        return number === 0 && !options.keepZero ? null : number;
      }),
    )
    .check(
      z.refine((value) => value === null || (Number.isInteger(value) && value >= options.min), { error: messages.invalid }),
      z.refine((value) => value === null || !Number.isInteger(value) || value <= options.max, { error: messages.max }),
    );
}

/** Square metres ("98", "98,5"); empty or zero is null. */
export function optionalArea(messages: { invalid: string; max: string }, max: number) {
  return z
    .pipe(
      rawScalar(messages.invalid),
      z.transform((value) => {
        if (isBlank(value)) return null;
        const number = typeof value === "number" ? value : Number((value as string).trim().replace(",", "."));
        return number === 0 ? null : number;
      }),
    )
    .check(
      z.refine((value) => value === null || (Number.isFinite(value) && value > 0), { error: messages.invalid }),
      z.refine((value) => value === null || !Number.isFinite(value) || value <= max, { error: messages.max }),
    );
}

/** The year built, between 1850 and five years from now (read when the form is checked). */
export const yearBuilt = z
  .pipe(
    rawScalar(LISTING_MESSAGES.yearBuilt),
    z.transform((value) => (isBlank(value) ? null : typeof value === "number" ? value : Number((value as string).trim()))),
  )
  .check(
    z.refine((value) => value === null || Number.isInteger(value), { error: LISTING_MESSAGES.yearBuilt }),
    z.superRefine((value, context) => {
      if (value === null || !Number.isInteger(value)) return;
      const latest = latestYearBuilt();
      if (value < LISTING_LIMITS.yearBuiltMin || value > latest) {
        context.issues.push({ code: "custom", input: value, message: LISTING_MESSAGES.yearBuiltRange(latest) });
      }
    }),
  );

/** Yes, no, or not said: true/false/null from JSON, "true"/"false"/"" from a form. */
export function triState(message: string) {
  return z.pipe(
    z.optional(z.nullable(z.union([z.boolean(), z.literal("true"), z.literal("false"), z.literal("")], { error: message }))),
    z.transform((value) => (value === true || value === "true" ? true : value === false || value === "false" ? false : null)),
  );
}

/** One of `values`, or null when empty. */
export function optionalChoice<const T extends readonly string[]>(values: T, message: string) {
  return z.pipe(
    z.optional(z.nullable(z.union([z.enum(values, { error: message }), z.literal("")], { error: message }))),
    z.transform((value): T[number] | null => (value ? (value as T[number]) : null)),
  );
}

/** Keys from `values` (a list, or one key as a form sends it), each once, in the list's order. */
export function choiceList<const T extends readonly string[]>(values: T, message: string) {
  return z.pipe(
    z.optional(z.nullable(z.union([z.array(z.enum(values, { error: message }), { error: message }), z.enum(values, { error: message })], { error: message }))),
    z.transform((value): T[number][] => {
      const chosen = new Set<string>(Array.isArray(value) ? value : value ? [value] : []);
      return values.filter((key) => chosen.has(key));
    }),
  );
}

/** Latitude or longitude in decimal degrees ("-5,8812" or "-5.8812"), inside Brazil. */
export function coordinate(messages: { invalid: string; range: string }, [min, max]: readonly [number, number]) {
  return z
    .pipe(
      rawScalar(messages.invalid),
      z.transform((value) => (isBlank(value) ? null : typeof value === "number" ? value : Number((value as string).trim().replace(",", ".")))),
    )
    .check(
      z.refine((value) => value === null || Number.isFinite(value), { error: messages.invalid }),
      z.refine((value) => value === null || !Number.isFinite(value) || (value >= min && value <= max), { error: messages.range }),
    );
}

/** A link checked and stored in one form (the normalised URL); empty is null. */
function link(message: string, normalize: (raw: string) => string | null) {
  return z.pipe(
    z.optional(z.nullable(z.string({ error: message }))),
    z.transform((value, context): string | null => {
      if (!value?.trim()) return null;
      const normalized = normalize(value);
      if (normalized === null) {
        context.issues.push({ code: "custom", input: value, message });
        return z.NEVER;
      }
      return normalized;
    }),
  );
}

export const videoUrl = link(LISTING_MESSAGES.videoUrl, (raw) => parseVideoLink(raw)?.url ?? null);
export const tourUrl = link(LISTING_MESSAGES.tourUrl, normalizeTourLink);

/** The issue-22 fields of the property form, each on its own. */
export const listingFields = {
  condo_fee: optionalMoney({ invalid: LISTING_MESSAGES.condoFee, max: LISTING_MESSAGES.condoFeeMax }, LISTING_LIMITS.condoFee),
  iptu_yearly: optionalMoney({ invalid: LISTING_MESSAGES.iptu, max: LISTING_MESSAGES.iptuMax }, LISTING_LIMITS.iptuYearly),
  accepts_financing: triState(LISTING_MESSAGES.acceptsFinancing),
  accepts_fgts: triState(LISTING_MESSAGES.acceptsFgts),
  accepts_exchange: triState(LISTING_MESSAGES.acceptsExchange),
  rental_guarantees: choiceList(RENTAL_GUARANTEES, LISTING_MESSAGES.rentalGuarantees),
  suites: optionalInteger({ invalid: LISTING_MESSAGES.suites, max: LISTING_MESSAGES.suitesMax }, { min: 0, max: 999 }),
  total_area: optionalArea({ invalid: LISTING_MESSAGES.totalArea, max: LISTING_MESSAGES.totalAreaMax }, 10_000_000),
  floor: optionalInteger({ invalid: LISTING_MESSAGES.floor, max: LISTING_MESSAGES.floorMax }, { min: 0, max: LISTING_LIMITS.floors, keepZero: true }),
  total_floors: optionalInteger({ invalid: LISTING_MESSAGES.totalFloors, max: LISTING_MESSAGES.totalFloorsMax }, { min: 1, max: LISTING_LIMITS.floors }),
  year_built: yearBuilt,
  furnished: optionalChoice(FURNISHED_VALUES, LISTING_MESSAGES.furnished),
  pets_allowed: triState(LISTING_MESSAGES.petsAllowed),
  features: choiceList(PROPERTY_FEATURES, LISTING_MESSAGES.features),
  address_number: optionalText(LISTING_LIMITS.addressNumber, LISTING_MESSAGES.addressNumberMax, { invalid: LISTING_MESSAGES.addressNumberInvalid }),
  address_complement: optionalText(LISTING_LIMITS.addressComplement, LISTING_MESSAGES.addressComplementMax, {
    invalid: LISTING_MESSAGES.addressComplementInvalid,
  }),
  latitude: coordinate({ invalid: LISTING_MESSAGES.latitude, range: LISTING_MESSAGES.latitudeRange }, BRAZIL_BOUNDS.latitude),
  longitude: coordinate({ invalid: LISTING_MESSAGES.longitude, range: LISTING_MESSAGES.longitudeRange }, BRAZIL_BOUNDS.longitude),
  video_url: videoUrl,
  tour_url: tourUrl,
};
