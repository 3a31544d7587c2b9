import * as z from "zod/mini";
import { isUuid } from "~/lib/ids";
import { email, fullName, optionalEmail, optionalText, phone } from "~/lib/validation";


/**
 * The public lead forms (spec §5), one schema each, used by the form in the browser and again by
 * the action. Loaded on demand in the browser (docs/decisions/003-javascript-budget.md).
 */

export const visitBookingSchema = z.object({
  full_name: fullName(),
  phone: phone(),
  email: optionalEmail(),
  notes: optionalText(500, "Mensagem muito longa"),
  // The property the visit is for; absent when booked from the list page.
  property_id: z.pipe(
    z.optional(z.string()),
    z.transform((value) => (isUuid(value) ? value : undefined)),
  ),
});

export const contactSchema = z.object({
  name: fullName(),
  email: email(),
  phone: phone(),
  message: z.string({ error: "Mensagem deve ter pelo menos 10 caracteres" }).check(
    z.trim(),
    z.minLength(10, { error: "Mensagem deve ter pelo menos 10 caracteres" }),
    z.maxLength(1000, { error: "Mensagem muito longa" }),
  ),
});

export type VisitBookingInput = z.infer<typeof visitBookingSchema>;
export type ContactInput = z.infer<typeof contactSchema>;
