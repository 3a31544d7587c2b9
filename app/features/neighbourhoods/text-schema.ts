import * as z from "zod/mini";
import { hasInvalidCharacters } from "~/lib/validation";
import { isNeighbourhoodSlug } from "./slug";

/** The longest text a broker may write about a neighbourhood (a short paragraph or two). */
export const NEIGHBOURHOOD_TEXT_MAX = 1500;

export const NEIGHBOURHOOD_TEXT_MESSAGES = {
  slug: "Bairro inválido. Recarregue a página e tente de novo.",
  unknown: "Este bairro não tem imóveis no site. Recarregue a página.",
  text: `O texto pode ter no máximo ${NEIGHBOURHOOD_TEXT_MAX.toLocaleString("pt-BR")} caracteres`,
  invalid: "O texto contém caracteres inválidos",
  missing: "Envie o texto do bairro (pode ficar em branco)",
} as const;

/**
 * The CRM's neighbourhood text form (/crm/bairros), judged again on the server. Line breaks from
 * a textarea (CRLF) count as one character, as the browser counts them; an empty text removes
 * the broker's text, and the page then shows none.
 */
export const neighbourhoodTextSchema = z.object({
  slug: z.string({ error: NEIGHBOURHOOD_TEXT_MESSAGES.slug }).check(z.refine(isNeighbourhoodSlug, { error: NEIGHBOURHOOD_TEXT_MESSAGES.slug })),
  text: z.pipe(
    z.string({ error: NEIGHBOURHOOD_TEXT_MESSAGES.missing }),
    z.transform((value) => value.replace(/\r\n?/g, "\n").trim()),
  ).check(
    z.maxLength(NEIGHBOURHOOD_TEXT_MAX, { error: NEIGHBOURHOOD_TEXT_MESSAGES.text }),
    z.refine((value) => !hasInvalidCharacters(value, true), { error: NEIGHBOURHOOD_TEXT_MESSAGES.invalid }),
  ),
});

export type NeighbourhoodTextInput = z.infer<typeof neighbourhoodTextSchema>;

/** The form's fields as values, or the first problem's message (the action answers 400 with it). */
export function parseNeighbourhoodText(fields: Record<string, unknown>): { ok: true; value: NeighbourhoodTextInput } | { ok: false; field: "slug" | "text"; message: string } {
  const result = neighbourhoodTextSchema.safeParse(fields);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return { ok: false, field: issue?.path[0] === "slug" ? "slug" : "text", message: issue?.message ?? NEIGHBOURHOOD_TEXT_MESSAGES.text };
}
