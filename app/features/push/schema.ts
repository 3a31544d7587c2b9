import { z } from "zod";
import { PUSH_KINDS } from "./kinds";

/**
 * What 'Minha conta' posts about push alerts; shared by the page and the action. Messages are
 * the ones the staff member reads.
 */

/** base64url of `bytes` bytes, with or without padding (browsers differ). */
const base64url = (bytes: number, message: string) => {
  const chars = Math.ceil((bytes * 4) / 3);
  const padding = (4 - (chars % 4)) % 4;
  return z
    .string({ error: message })
    .regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}={0,${padding}}$`), { error: message })
    .transform((value) => value.replace(/=+$/, ""));
};

export const PUSH_MESSAGES = {
  endpoint: "O endereço de alertas deste navegador não é válido.",
  keys: "As chaves de alertas deste navegador não são válidas.",
  service: "Este navegador usa um serviço de alertas que não é aceito.",
  tooMany: "Limite de aparelhos atingido. Remova um aparelho antes de ativar outro.",
  enabled: "Alertas ativados neste aparelho.",
  removed: "Aparelho removido. Ele não recebe mais alertas.",
  notFound: "Aparelho não encontrado.",
  saved: "Preferências de alertas salvas.",
  failed: "Não foi possível salvar. Tente novamente.",
  kinds: "Escolha alertas da lista.",
} as const;

export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ error: PUSH_MESSAGES.endpoint }).max(1000, { error: PUSH_MESSAGES.endpoint }),
  p256dh: base64url(65, PUSH_MESSAGES.keys),
  auth: base64url(16, PUSH_MESSAGES.keys),
  userAgent: z.string().max(500).optional().default(""),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const pushPreferencesSchema = z.object({
  kinds: z.array(z.enum(PUSH_KINDS, { error: PUSH_MESSAGES.kinds })).max(PUSH_KINDS.length, { error: PUSH_MESSAGES.kinds }),
  reminderEmail: z.boolean(),
});
export type PushPreferencesInput = z.infer<typeof pushPreferencesSchema>;
