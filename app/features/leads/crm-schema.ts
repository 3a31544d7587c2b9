import * as z from "zod/mini";
import { LEAD_INTERESTS, LEAD_ORIGINS, LEAD_STATUSES, PROPERTY_TYPES } from "~/db/values";
import { choice, fullName, optionalEmail, optionalText, phone } from "~/lib/validation";
import { lossFields, requireLossReason } from "./loss";

/** The CRM's lead form (spec §3 and §5), shared by the dialog and the action. */
export const leadFormSchema = z.object({
  full_name: fullName(),
  phone: phone(),
  email: optionalEmail(),
  interest_type: choice(LEAD_INTERESTS, "Selecione o interesse"),
  // Optional; all four property types (the spec's form listed three: docs/decisions/002).
  property_type: z.pipe(
    z.optional(z.nullable(z.string({ error: "Selecione o tipo de imóvel" }))),
    z.transform((value) => ((PROPERTY_TYPES as readonly string[]).includes(value ?? "") ? (value as (typeof PROPERTY_TYPES)[number]) : null)),
  ),
  origin: choice(LEAD_ORIGINS, "Selecione a origem"),
  status: choice(LEAD_STATUSES, "Selecione o status"),
  notes: optionalText(1000, "Notas muito longas", { multiline: true, invalid: "Notas contêm caracteres inválidos" }),
  // Issue 24: asked when the status is 'perdido' (ignored, and cleared, otherwise).
  ...lossFields,
}, { error: "Dados inválidos" }).check(requireLossReason);

export type LeadFormInput = z.input<typeof leadFormSchema>;
export type LeadFormValues = z.output<typeof leadFormSchema>;

export const LEAD_CRM_MESSAGES = {
  created: "Lead cadastrado com sucesso!",
  updated: "Lead atualizado com sucesso!",
  saveFailed: "Erro ao salvar lead. Tente novamente.",
  deleteConfirm: "Tem certeza que deseja excluir este lead?",
  deleted: "Lead excluído com sucesso!",
  deleteFailed: "Erro ao excluir lead",
  loadFailed: "Erro ao carregar leads",
} as const;
