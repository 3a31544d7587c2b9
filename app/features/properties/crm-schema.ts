import * as z from "zod/mini";
import { PROPERTY_PURPOSES, PROPERTY_STATUSES, PROPERTY_TYPES } from "~/db/values";
import { parseBRLInput } from "~/lib/money";
import { choice, optionalText, text } from "~/lib/validation";

/**
 * The CRM's property form (spec §3 and §5), shared by the dialog (react-hook-form) and the
 * action. It accepts what a form sends (strings, "on") as well as JSON, and outputs the row.
 */

const rawNumber = z.optional(z.nullable(z.union([z.string(), z.number()])));

/** Optional counts and area: empty or zero is saved as null (spec §5). */
function optionalNumber(message: string, integer: boolean) {
  return z.pipe(
    rawNumber,
    z.transform((value) => {
      if (value === null || value === undefined || (typeof value === "string" && value.trim() === "")) return null;
      const number = typeof value === "number" ? value : Number(value.trim().replace(",", "."));
      return number === 0 ? null : number;
    }),
  ).check(
    z.refine((value) => value === null || (Number.isFinite(value) && value >= 0 && (!integer || Number.isInteger(value))), {
      error: message,
    }),
  );
}

export const MAX_PHOTOS = 30;

export const propertyFormSchema = z.object({
  codigo: z.pipe(
    text(1, 50, { min: "Código é obrigatório", max: "Código muito longo" }),
    z.transform((value) => value.toUpperCase()),
  ),
  title: text(5, 200, { min: "Título deve ter pelo menos 5 caracteres", max: "Título muito longo" }),
  description: text(10, 2000, { min: "Descrição deve ter pelo menos 10 caracteres", max: "Descrição muito longa" }),
  type: choice(PROPERTY_TYPES, "Selecione o tipo"),
  purpose: choice(PROPERTY_PURPOSES, "Selecione a finalidade"),
  status: choice(PROPERTY_STATUSES, "Selecione o status"),
  featured: z.pipe(
    z.optional(z.union([z.boolean(), z.string()])),
    z.transform((value) => value === true || value === "on" || value === "true"),
  ),
  price: z.pipe(rawNumber, z.transform((value) => (value === null || value === undefined ? Number.NaN : parseBRLInput(value)))).check(
    z.refine((value) => Number.isFinite(value) && value >= 0 && value < 1e12, { error: "Preço inválido" }),
  ),
  area: optionalNumber("Área inválida", false),
  bedrooms: optionalNumber("Quantidade de quartos inválida", true),
  bathrooms: optionalNumber("Quantidade de banheiros inválida", true),
  parking_spaces: optionalNumber("Quantidade de vagas inválida", true),
  neighborhood: text(2, 100, { min: "Bairro deve ter pelo menos 2 caracteres", max: "Bairro muito longo" }),
  city: text(2, 100, { min: "Cidade deve ter pelo menos 2 caracteres", max: "Cidade muito longa" }),
  state: z.pipe(
    z.string({ error: "Estado deve ter 2 caracteres" }).check(z.trim(), z.length(2, { error: "Estado deve ter 2 caracteres" })),
    z.transform((value) => value.toUpperCase()),
  ),
  broker_partner: optionalText(100, "Parceiro muito longo"),
  images: z.pipe(
    z.optional(z.array(z.string().check(z.maxLength(500)))),
    z.transform((value) => value ?? []),
  ).check(z.refine((value) => value.length <= MAX_PHOTOS, { error: `No máximo ${MAX_PHOTOS} fotos por imóvel` })),
});

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
