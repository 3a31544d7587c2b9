import * as z from "zod/mini";
import { MAX_LOST_REASON_LENGTH } from "~/features/settings/lost-reasons";
import { optionalText } from "~/lib/validation";

/**
 * Why a lead was lost (issue 24, item 3): every form that can set status 'perdido' (the table's
 * dialog, the board, the lead page) carries these two fields, and its schema refuses 'perdido'
 * without a reason. Whether the reason is one of the settings' list is the server's check
 * (loss.server.ts). Browser-safe.
 */

export const LOST_NOTE_MAX = 500;

export const LOSS_MESSAGES = {
  reasonRequired: "Selecione o motivo da perda",
  reasonUnknown: "Motivo da perda desconhecido. Recarregue a página e escolha um motivo da lista.",
  noteMax: `Observação da perda muito longa (máximo de ${LOST_NOTE_MAX} caracteres)`,
  noteInvalid: "Observação da perda contém caracteres inválidos",
} as const;

export const lossFields = {
  lost_reason: z.pipe(
    z.optional(z.nullable(z.string({ error: LOSS_MESSAGES.reasonUnknown }))),
    z.transform((value) => value?.trim() || null),
  ).check(z.refine((value) => value === null || value.length <= MAX_LOST_REASON_LENGTH, { error: LOSS_MESSAGES.reasonUnknown })),
  lost_note: optionalText(LOST_NOTE_MAX, LOSS_MESSAGES.noteMax, { multiline: true, invalid: LOSS_MESSAGES.noteInvalid }),
};

/** 'perdido' needs a reason; the message goes to the reason's field. */
export const requireLossReason = z.superRefine((value: { status: string; lost_reason: string | null }, context) => {
  if (value.status === "perdido" && !value.lost_reason) {
    context.addIssue({ code: "custom", message: LOSS_MESSAGES.reasonRequired, path: ["lost_reason"], input: value.lost_reason });
  }
});

export type Loss = { lost_reason: string | null; lost_note?: string | null };
