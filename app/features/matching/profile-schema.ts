import * as z from "zod/mini";
import { PROPERTY_FEATURES, PROPERTY_PURPOSES, PROPERTY_TYPES } from "~/db/values";
import { choiceList, optionalArea, optionalInteger, optionalMoney } from "~/features/properties/listing-schema";
import { choice, hasInvalidCharacters } from "~/lib/validation";

/**
 * A lead's profile (perfil de busca), checked in the action: a form post (repeated keys become
 * lists) or JSON. Empty means "any". Money in reais like properties.price (docs/decisions/023).
 */

export const PROFILE_LIMITS = {
  neighborhoods: 10,
  neighborhoodLength: 100,
  price: 1_000_000_000,
  minimum: 50,
  area: 10_000_000,
  profilesPerLead: 10,
} as const;

export const PROFILE_MESSAGES = {
  purpose: "Selecione a finalidade (venda ou aluguel)",
  types: "Tipo de imóvel inválido",
  neighborhoods: `Informe no máximo ${PROFILE_LIMITS.neighborhoods} bairros`,
  neighborhood: `Bairro inválido (de 2 a ${PROFILE_LIMITS.neighborhoodLength} caracteres)`,
  priceMin: "Preço mínimo inválido",
  priceMax: "Preço máximo inválido",
  priceTooHigh: "Preço acima do permitido",
  priceOrder: "O preço máximo deve ser maior ou igual ao mínimo",
  bedrooms: "Mínimo de quartos inválido",
  suites: "Mínimo de suítes inválido",
  parking: "Mínimo de vagas inválido",
  minimumTooHigh: `Use no máximo ${PROFILE_LIMITS.minimum}`,
  area: "Área mínima inválida",
  areaTooHigh: "Área mínima acima do permitido",
  features: "Característica inválida: escolha da lista",
  financing: "Valor inválido para 'aceita financiamento'",
  tooMany: `Um lead pode ter no máximo ${PROFILE_LIMITS.profilesPerLead} perfis`,
  notFound: "Perfil não encontrado. Ele pode ter sido excluído.",
  saved: "Perfil de busca salvo!",
  deleted: "Perfil de busca excluído.",
  saveFailed: "Erro ao salvar o perfil. Tente novamente.",
} as const;

/** Neighbourhoods: a list, or one text with commas or line breaks; trimmed, each once (any case). */
const neighborhoods = z.pipe(
  z.optional(z.nullable(z.union([z.string({ error: PROFILE_MESSAGES.neighborhood }), z.array(z.string({ error: PROFILE_MESSAGES.neighborhood }))], { error: PROFILE_MESSAGES.neighborhood }))),
  z.transform((value, context) => {
    const raw = (Array.isArray(value) ? value : value ? [value] : []).flatMap((item) => item.split(/[,\n;]/));
    const seen = new Set<string>();
    const result: string[] = [];
    for (const item of raw) {
      const name = item.trim().replace(/\s+/g, " ");
      if (!name) continue;
      if (name.length < 2 || name.length > PROFILE_LIMITS.neighborhoodLength || hasInvalidCharacters(name)) {
        context.issues.push({ code: "custom", message: PROFILE_MESSAGES.neighborhood, input: item });
        return z.NEVER;
      }
      const key = name.toLocaleLowerCase("pt-BR");
      if (seen.has(key)) continue;
      seen.add(key);
      result.push(name);
    }
    if (result.length > PROFILE_LIMITS.neighborhoods) {
      context.issues.push({ code: "custom", message: PROFILE_MESSAGES.neighborhoods, input: value });
      return z.NEVER;
    }
    return result;
  }),
);

/** A checkbox: "on"/"true" from a form, a boolean from JSON; absent is false. */
const checkbox = z.pipe(
  z.optional(z.nullable(z.union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false"), z.literal("")], { error: PROFILE_MESSAGES.financing }))),
  z.transform((value) => value === true || value === "on" || value === "true"),
);

export const profileSchema = z
  .object(
    {
      purpose: choice(PROPERTY_PURPOSES, PROFILE_MESSAGES.purpose),
      types: choiceList(PROPERTY_TYPES, PROFILE_MESSAGES.types),
      neighborhoods,
      price_min: optionalMoney({ invalid: PROFILE_MESSAGES.priceMin, max: PROFILE_MESSAGES.priceTooHigh }, PROFILE_LIMITS.price),
      price_max: optionalMoney({ invalid: PROFILE_MESSAGES.priceMax, max: PROFILE_MESSAGES.priceTooHigh }, PROFILE_LIMITS.price),
      min_bedrooms: optionalInteger({ invalid: PROFILE_MESSAGES.bedrooms, max: PROFILE_MESSAGES.minimumTooHigh }, { min: 0, max: PROFILE_LIMITS.minimum }),
      min_suites: optionalInteger({ invalid: PROFILE_MESSAGES.suites, max: PROFILE_MESSAGES.minimumTooHigh }, { min: 0, max: PROFILE_LIMITS.minimum }),
      min_parking: optionalInteger({ invalid: PROFILE_MESSAGES.parking, max: PROFILE_MESSAGES.minimumTooHigh }, { min: 0, max: PROFILE_LIMITS.minimum }),
      min_area: optionalArea({ invalid: PROFILE_MESSAGES.area, max: PROFILE_MESSAGES.areaTooHigh }, PROFILE_LIMITS.area),
      features: choiceList(PROPERTY_FEATURES, PROFILE_MESSAGES.features),
      accepts_financing: checkbox,
    },
    { error: "Dados inválidos" },
  )
  .check(
    z.refine((profile) => profile.price_min === null || profile.price_max === null || profile.price_max >= profile.price_min, {
      error: PROFILE_MESSAGES.priceOrder,
      path: ["price_max"],
    }),
  );

export type ProfileInput = z.output<typeof profileSchema>;
