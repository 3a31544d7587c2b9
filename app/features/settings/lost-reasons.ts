import * as z from "zod/mini";
import { hasInvalidCharacters } from "~/lib/validation";

/**
 * The reasons a lead is lost for (issue 24, item 3), kept in the settings and edited by an admin
 * at /crm/configuracoes. A lead stores the reason's label as it was chosen (decision 027), so a
 * reason removed or renamed here still reads on the leads lost for it. Browser-safe.
 */

export const MAX_LOST_REASONS = 20;
export const MAX_LOST_REASON_LENGTH = 60;

/** First-run list, until the broker edits it. */
export const DEFAULT_LOST_REASONS: readonly string[] = [
  "Preço",
  "Localização",
  "Comprou com outro corretor",
  "Desistiu",
  "Financiamento negado",
  "Sem resposta",
  "Outro",
];

export const LOST_REASONS_MESSAGES = {
  min: "Mantenha pelo menos um motivo de perda",
  max: `No máximo ${MAX_LOST_REASONS} motivos de perda`,
  labelMin: "Escreva o motivo (pelo menos 2 caracteres)",
  labelMax: `Motivo com no máximo ${MAX_LOST_REASON_LENGTH} caracteres`,
  labelInvalid: "O motivo contém caracteres inválidos",
  duplicate: (label: string) => `Motivo repetido: ${label.slice(0, MAX_LOST_REASON_LENGTH)}`,
  saved: "Motivos de perda salvos.",
} as const;

const label = z.string({ error: LOST_REASONS_MESSAGES.labelMin }).check(
  z.trim(),
  z.minLength(2, { error: LOST_REASONS_MESSAGES.labelMin }),
  z.maxLength(MAX_LOST_REASON_LENGTH, { error: LOST_REASONS_MESSAGES.labelMax }),
  z.refine((value) => !hasInvalidCharacters(value), { error: LOST_REASONS_MESSAGES.labelInvalid }),
);

/** The list as saved: 1 to 20 labels, none repeated (ignoring case and accents). */
export const lostReasonsSchema = z.array(label).check(
  z.minLength(1, { error: LOST_REASONS_MESSAGES.min }),
  z.maxLength(MAX_LOST_REASONS, { error: LOST_REASONS_MESSAGES.max }),
  z.superRefine((labels, context) => {
    const seen = new Set<string>();
    for (const item of labels) {
      const key = reasonKey(item);
      if (seen.has(key)) {
        context.addIssue({ code: "custom", message: LOST_REASONS_MESSAGES.duplicate(item), input: item });
        return;
      }
      seen.add(key);
    }
  }),
);

/** Two spellings of one reason ("Preço", "preco ") are the same reason. */
export function reasonKey(value: string): string {
  return value.trim().toLocaleLowerCase("pt-BR").normalize("NFD").replace(/[\u0300-\u036f]/g, "");
}
