import * as z from "zod/mini";
import { isUuid } from "~/lib/ids";
import { periodWithoutDay, PREFERENCE_MESSAGES, preferenceFields } from "./visit-preferences";
import { email, fullName, optionalEmail, optionalText, phone, text } from "~/lib/validation";

/**
 * The public lead forms (spec §5), one schema each, used by the form in the browser and again by
 * the action. Loaded on demand in the browser (docs/decisions/003-javascript-budget.md).
 */

export const visitBookingSchema = z.object({
  full_name: fullName(),
  phone: phone(),
  email: optionalEmail(),
  notes: optionalText(500, "Mensagem muito longa", { multiline: true, invalid: "Mensagem contém caracteres inválidos" }),
  // The property the visit is for; absent when booked from the list page. Anything but an id
  // (a hand-made post) books the visit without a property rather than refusing it.
  property_id: z.pipe(
    z.optional(z.unknown()),
    z.transform((value) => (isUuid(value) ? value : undefined)),
  ),
  // Issue 25: preferred days and periods, all optional.
  ...preferenceFields,
}, { error: "Dados inválidos" }).check(
  z.superRefine((values, context) => {
    const slot = periodWithoutDay(values);
    if (slot !== null) context.issues.push({ code: "custom", message: PREFERENCE_MESSAGES.periodWithoutDay(slot), input: values, path: [`pref_day_${slot}`] });
  }),
);

export const contactSchema = z.object({
  name: fullName(),
  email: email(),
  phone: phone(),
  message: text(
    10,
    1000,
    { min: "Mensagem deve ter pelo menos 10 caracteres", max: "Mensagem muito longa" },
    { multiline: true, invalid: "Mensagem contém caracteres inválidos" },
  ),
}, { error: "Dados inválidos" });

export type VisitBookingInput = z.infer<typeof visitBookingSchema>;
export type ContactInput = z.infer<typeof contactSchema>;
