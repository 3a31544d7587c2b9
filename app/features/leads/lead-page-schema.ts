import * as z from "zod/mini";
import { LEAD_STATUSES } from "~/db/values";
import { parseBrokerDateTime } from "~/lib/format";
import { choice, text } from "~/lib/validation";
import { lossFields, requireLossReason } from "./loss";

/** The lead page's small forms (note, next contact, status), checked in the browser and again in the action. */

export const NOTE_MAX = 2000;

export const noteSchema = z.object({
  body: text(1, NOTE_MAX, { min: "Escreva a nota", max: `Nota muito longa (máximo de ${NOTE_MAX} caracteres)` }, { multiline: true, invalid: "Nota contém caracteres inválidos" }),
}, { error: "Dados inválidos" });

/** Empty clears the next contact; otherwise a datetime-local value in the broker's time. */
export const nextContactSchema = z.object({
  next_contact_at: z.pipe(
    z.optional(z.nullable(z.string({ error: "Data e hora inválidas" }))),
    z.transform((value, context) => {
      const trimmed = value?.trim() ?? "";
      if (!trimmed) return null;
      const parsed = parseBrokerDateTime(trimmed);
      if (!parsed) {
        context.issues.push({ code: "custom", message: "Data e hora inválidas", input: value });
        return z.NEVER;
      }
      const year = parsed.getUTCFullYear();
      if (year < 2000 || year > 2100) {
        context.issues.push({ code: "custom", message: "Data fora do intervalo permitido", input: value });
        return z.NEVER;
      }
      return parsed;
    }),
  ),
}, { error: "Dados inválidos" });

export const statusSchema = z.object({
  status: choice(LEAD_STATUSES, "Selecione o status"),
  ...lossFields,
}, { error: "Dados inválidos" }).check(requireLossReason);

export const LEAD_PAGE_MESSAGES = {
  notFound: "Lead não encontrado. Ele pode ter sido excluído.",
  noteAdded: "Nota adicionada!",
  noteFailed: "Erro ao salvar a nota. Tente novamente.",
  nextContactSet: "Próximo contato definido!",
  nextContactCleared: "Próximo contato removido.",
  nextContactFailed: "Erro ao salvar o próximo contato. Tente novamente.",
  statusChanged: "Status atualizado!",
  statusFailed: "Erro ao mudar o status. Tente novamente.",
  unknownIntent: "Ação desconhecida",
} as const;
