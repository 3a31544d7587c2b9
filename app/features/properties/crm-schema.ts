import * as z from "zod/mini";
import { PROPERTY_PURPOSES, PROPERTY_STATUSES, PROPERTY_TYPES, type PropertyType } from "~/db/values";
import { isCanonicalMediaUrl } from "~/features/media/urls";
import { parseBRLInput } from "~/lib/money";
import { choice, hasInvalidCharacters, optionalText, text } from "~/lib/validation";
import { LISTING_LIMITS, LISTING_MESSAGES, listingFields } from "./listing-schema";

/**
 * The CRM's property form (spec §3 and §5), shared by the dialog (react-hook-form) and the
 * action. It accepts what a form sends (strings, "on") as well as JSON, and outputs the row.
 */

/** Sane maxima: beyond them a value is a typo (or a probe), and the columns would overflow. */
export const LIMITS = {
  /** R$ 1 bilhão. */
  price: 1_000_000_000,
  /** 1,000 hectares, in m². */
  area: 10_000_000,
  /** Bedrooms, bathrooms, parking spaces. */
  count: 999,
} as const;

const rawNumber = (message: string) =>
  z.optional(z.nullable(z.union([z.string({ error: message }), z.number({ error: message })], { error: message })));

/** Optional counts and area: empty or zero is saved as null (spec §5). */
function optionalNumber(messages: { invalid: string; max: string }, options: { integer: boolean; max: number }) {
  return z.pipe(
    rawNumber(messages.invalid),
    z.transform((value) => {
      if (value === null || value === undefined || (typeof value === "string" && value.trim() === "")) return null;
      const number = typeof value === "number" ? value : Number(value.trim().replace(",", "."));
      return number === 0 ? null : number;
    }),
  ).check(
    z.refine((value) => value === null || (Number.isFinite(value) && value >= 0 && (!options.integer || Number.isInteger(value))), {
      error: messages.invalid,
    }),
    z.refine((value) => value === null || !Number.isFinite(value) || value <= options.max, { error: messages.max }),
  );
}

const formatLimit = (value: number) => new Intl.NumberFormat("pt-BR").format(value);

export const MAX_PHOTOS = 30;

/** A checkbox as a form sends it ("on") or as JSON (true): anything else, or nothing, is off. */
const checkbox = (message: string) =>
  z.pipe(
    z.optional(z.union([z.boolean(), z.string()], { error: message })),
    z.transform((value) => value === true || value === "on" || value === "true"),
  );

export const ADDRESS_MESSAGES = {
  min: "Endereço deve ter pelo menos 3 caracteres",
  max: "Endereço muito longo",
  invalid: "Endereço contém caracteres inválidos",
  cep: "CEP inválido. Use o formato 00000-000",
} as const;

/** Characters as PostgreSQL's char_length counts them (an emoji is one). */
const characters = (value: string) => [...value].length;

/** The street address (issue 13): optional, 3–200 characters, empty is none. */
const streetAddress = z
  .pipe(
    z.optional(z.nullable(z.string({ error: ADDRESS_MESSAGES.invalid }))),
    z.transform((value) => value?.trim() || undefined),
  )
  .check(
    z.refine((value) => value === undefined || !hasInvalidCharacters(value), { error: ADDRESS_MESSAGES.invalid }),
    z.refine((value) => value === undefined || hasInvalidCharacters(value) || characters(value) >= 3, { error: ADDRESS_MESSAGES.min }),
    z.refine((value) => value === undefined || characters(value) <= 200, { error: ADDRESS_MESSAGES.max }),
  );

/** "59064-000", "59064000" or "59.064-000"; empty is none. */
const CEP_INPUT = /^\d{2}\.?\d{3}-?\d{3}$/;

/** The CEP as it is stored and shown: 00000-000 (issue 13). */
export const formatCep = (value: string) => {
  const digits = value.replace(/\D/g, "");
  return `${digits.slice(0, 5)}-${digits.slice(5, 8)}`;
};

/** What the CEP field shows while typing: digits only, the hyphen added after the fifth. */
export const maskCepInput = (value: string) => {
  const digits = value.replace(/\D/g, "").slice(0, 8);
  return digits.length > 5 ? formatCep(digits) : digits;
};

const cep = z.pipe(
  z
    .pipe(
      z.optional(z.nullable(z.string({ error: ADDRESS_MESSAGES.cep }))),
      z.transform((value) => value?.trim() || undefined),
    )
    .check(z.refine((value) => value === undefined || CEP_INPUT.test(value), { error: ADDRESS_MESSAGES.cep })),
  z.transform((value) => (value === undefined ? undefined : formatCep(value))),
);

export const PHOTO_URL_MESSAGE = "Foto inválida: use apenas fotos enviadas por este formulário";

/** Types whose listings have an 'andar' (a house's or a plot's is ignored, never refused). */
export const FLOOR_TYPES = ["apartamento", "ponto_comercial"] as const satisfies readonly PropertyType[];
export const hasFloors = (type: unknown) => (FLOOR_TYPES as readonly unknown[]).includes(type);

const propertyFields = z.object({
  codigo: z.pipe(
    text(1, 50, { min: "Código é obrigatório", max: "Código muito longo" }, { invalid: "Código contém caracteres inválidos" }),
    z.transform((value) => value.toUpperCase()),
  ),
  title: text(5, 200, { min: "Título deve ter pelo menos 5 caracteres", max: "Título muito longo" }, { invalid: "Título contém caracteres inválidos" }),
  description: text(
    10,
    2000,
    { min: "Descrição deve ter pelo menos 10 caracteres", max: "Descrição muito longa" },
    { multiline: true, invalid: "Descrição contém caracteres inválidos" },
  ),
  type: choice(PROPERTY_TYPES, "Selecione o tipo"),
  purpose: choice(PROPERTY_PURPOSES, "Selecione a finalidade"),
  status: choice(PROPERTY_STATUSES, "Selecione o status"),
  featured: z.pipe(
    z.optional(z.union([z.boolean(), z.string()], { error: "Destaque inválido" })),
    z.transform((value) => value === true || value === "on" || value === "true"),
  ),
  price: z.pipe(rawNumber("Preço inválido"), z.transform((value) => (value === null || value === undefined ? Number.NaN : parseBRLInput(value)))).check(
    z.refine((value) => Number.isFinite(value) && value >= 0, { error: "Preço inválido" }),
    z.refine((value) => !Number.isFinite(value) || value <= LIMITS.price, { error: `Preço deve ser no máximo R$ ${formatLimit(LIMITS.price)}` }),
  ),
  area: optionalNumber(
    { invalid: "Área inválida", max: `Área deve ser no máximo ${formatLimit(LIMITS.area)} m²` },
    { integer: false, max: LIMITS.area },
  ),
  bedrooms: optionalNumber(
    { invalid: "Quantidade de quartos inválida", max: `Quantidade de quartos deve ser no máximo ${LIMITS.count}` },
    { integer: true, max: LIMITS.count },
  ),
  bathrooms: optionalNumber(
    { invalid: "Quantidade de banheiros inválida", max: `Quantidade de banheiros deve ser no máximo ${LIMITS.count}` },
    { integer: true, max: LIMITS.count },
  ),
  parking_spaces: optionalNumber(
    { invalid: "Quantidade de vagas inválida", max: `Quantidade de vagas deve ser no máximo ${LIMITS.count}` },
    { integer: true, max: LIMITS.count },
  ),
  neighborhood: text(2, 100, { min: "Bairro deve ter pelo menos 2 caracteres", max: "Bairro muito longo" }, { invalid: "Bairro contém caracteres inválidos" }),
  city: text(2, 100, { min: "Cidade deve ter pelo menos 2 caracteres", max: "Cidade muito longa" }, { invalid: "Cidade contém caracteres inválidos" }),
  state: z.pipe(
    z.string({ error: "Estado deve ter 2 caracteres" }).check(
      z.trim(),
      z.length(2, { error: "Estado deve ter 2 caracteres" }),
      z.regex(/^[A-Za-z]{2}$/, { error: "Estado deve ser a sigla com 2 letras, como RN" }),
    ),
    z.transform((value) => value.toUpperCase()),
  ),
  broker_partner: optionalText(100, "Parceiro muito longo", { invalid: "Parceiro contém caracteres inválidos" }),
  // The portals (issue 13): the feed's switch, and the address shown only when the broker says so.
  publish_to_portals: checkbox("Publicar nos portais inválido"),
  street_address: streetAddress,
  cep,
  display_address: checkbox("Exibir endereço inválido"),
  images: z.pipe(
    z.optional(z.array(z.string({ error: PHOTO_URL_MESSAGE }), { error: PHOTO_URL_MESSAGE })),
    z.transform((value) => value ?? []),
  ).check(
    z.refine((value) => value.length <= MAX_PHOTOS, { error: `No máximo ${MAX_PHOTOS} fotos por imóvel` }),
    z.refine((value) => value.every(isCanonicalMediaUrl), { error: PHOTO_URL_MESSAGE }),
  ),
  // The listing as the portals know it (issue 22): listing-schema.ts.
  ...listingFields,
}, { error: "Dados inválidos" });

type PropertyFields = z.output<typeof propertyFields>;

/**
 * Rules that compare two fields, each reported on the field the broker should look at. They run
 * once every field is valid on its own (zod checks an object only then).
 */
const crossFieldRules = [
  // Suítes are bedrooms with a bathroom: never more than the bedrooms (none given counts as 0).
  z.refine<PropertyFields>((values) => values.suites === null || values.suites <= (values.bedrooms ?? 0), {
    error: LISTING_MESSAGES.suitesOverBedrooms,
    path: ["suites"],
  }),
  z.refine<PropertyFields>((values) => !hasFloors(values.type) || values.floor === null || values.total_floors === null || values.floor <= values.total_floors, {
    error: LISTING_MESSAGES.floorOverTotal,
    path: ["floor"],
  }),
  // No order is imposed between the two areas ('área total' is a flat's private + shared area but
  // a house's plot, which a two-storey house can exceed); only a factor no listing reaches is refused.
  z.refine<PropertyFields>((values) => values.area === null || values.total_area === null || values.area <= values.total_area * LISTING_LIMITS.areaRatio, {
    error: LISTING_MESSAGES.areaRatio,
    path: ["total_area"],
  }),
  z.refine<PropertyFields>((values) => (values.latitude === null) === (values.longitude === null), {
    error: LISTING_MESSAGES.coordinatesTogether,
    path: ["longitude"],
  }),
];

/**
 * What does not apply to the listing is dropped, not refused (the form hides it, and a broker who
 * switches a sale to a rent must not meet errors about fields no longer shown): rental guarantees
 * go with sales, financing, FGTS and permuta with rentals, andar with houses and plots.
 */
function dropWhatDoesNotApply(values: PropertyFields): PropertyFields {
  const rental = values.purpose === "aluguel";
  return {
    ...values,
    rental_guarantees: rental ? values.rental_guarantees : [],
    accepts_financing: rental ? null : values.accepts_financing,
    accepts_fgts: rental ? null : values.accepts_fgts,
    accepts_exchange: rental ? null : values.accepts_exchange,
    floor: hasFloors(values.type) ? values.floor : null,
    total_floors: hasFloors(values.type) ? values.total_floors : null,
  };
}

export const propertyFormSchema = z.pipe(propertyFields.check(...crossFieldRules), z.transform(dropWhatDoesNotApply));

export type PropertyFormInput = z.input<typeof propertyFormSchema>;
export type PropertyFormValues = z.output<typeof propertyFormSchema>;

export const PROPERTY_MESSAGES = {
  created: "Imóvel cadastrado com sucesso!",
  updated: "Imóvel atualizado com sucesso!",
  saveFailed: "Erro ao salvar imóvel. Tente novamente.",
  duplicateCode: "Código já cadastrado",
  deleteConfirm: "Tem certeza que deseja excluir este imóvel?",
  deleted: "Imóvel excluído com sucesso!",
  deleteFailed: "Erro ao excluir imóvel",
  loadFailed: "Erro ao carregar imóveis",
  uploadFailed: "Erro ao fazer upload das imagens: ",
} as const;
