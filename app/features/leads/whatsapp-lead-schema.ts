import * as z from "zod/mini";
import { isUuid } from "~/lib/ids";
import { fullName, phone } from "~/lib/validation";

/**
 * 'Registrar conversa de WhatsApp' on the dashboard (issue 25, decision 028): a conversation the
 * broker is having becomes a lead in three steps — name, phone, the listing (optional). Name and
 * phone carry the spec's messages (the same rules as the lead form); shared by the dialog and the
 * dashboard's action.
 */
export const WHATSAPP_LEAD_MESSAGES = {
  property: "Imóvel inválido",
  propertyNotFound: "Imóvel não encontrado. Escolha outro ou deixe sem imóvel.",
  created: "Conversa registrada como lead (origem WhatsApp).",
  saveFailed: "Erro ao salvar lead. Tente novamente.",
} as const;

export const whatsappLeadSchema = z.object(
  {
    full_name: fullName(),
    phone: phone(),
    property_id: z
      .pipe(
        z.optional(z.nullable(z.string({ error: WHATSAPP_LEAD_MESSAGES.property }))),
        z.transform((value) => value?.trim() || null),
      )
      .check(z.refine((value) => value === null || isUuid(value), { error: WHATSAPP_LEAD_MESSAGES.property })),
  },
  { error: "Dados inválidos" },
);

export type WhatsappLeadInput = z.input<typeof whatsappLeadSchema>;
export type WhatsappLeadValues = z.output<typeof whatsappLeadSchema>;
