import * as z from "zod/mini";
import { email, MESSAGES, PHONE_PATTERN } from "~/lib/validation";
import { ALERT_LIMITS, ALERT_MESSAGES } from "./messages";

/** An optional WhatsApp number, checked like the other forms' phone (10–20 characters, the same pattern). */
const optionalPhone = () =>
  z.pipe(
    z.optional(z.nullable(z.string({ error: MESSAGES.phone }))),
    z.transform((value) => value?.trim() || undefined),
  ).check(
    z.refine((value) => value === undefined || (value.length >= 10 && value.length <= 20), { error: MESSAGES.phoneLength }),
    z.refine((value) => value === undefined || PHONE_PATTERN.test(value), { error: MESSAGES.phone }),
  );

/** The 'Avise-me' form: `q` is /imoveis's query string as the page had it (normalised again on the server). */
export const alertSchema = z.object(
  {
    email: email(),
    phone: optionalPhone(),
    q: z.pipe(
      z.optional(z.nullable(z.string({ error: ALERT_MESSAGES.query }))),
      z.transform((value) => (value ?? "").replace(/^\?/, "")),
    ).check(z.refine((value) => value.length <= ALERT_LIMITS.queryLength, { error: ALERT_MESSAGES.query })),
  },
  { error: "Dados inválidos" },
);

export type AlertInput = z.output<typeof alertSchema>;
