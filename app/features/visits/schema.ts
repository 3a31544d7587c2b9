import * as z from "zod/mini";
import { parseBrokerDateTime } from "~/lib/format";
import { isUuid } from "~/lib/ids";
import { optionalText } from "~/lib/validation";
import { VISIT_STATUS_VALUES } from "./labels";

export const VISIT_FIELD_MESSAGES = {
  lead: "Selecione o lead",
  property: "Imóvel inválido",
  when: "Informe a data e a hora da visita",
  whenRange: "A data da visita deve estar entre um ano atrás e dois anos à frente",
  notes: "Observações muito longas (máximo de 1000 caracteres)",
  notesInvalid: "Observações contêm caracteres inválidos",
  status: "Status inválido",
} as const;

const DAY_MS = 24 * 3600_000;

/**
 * A visit date that makes sense: a visit recorded after the fact (up to a year ago) or planned
 * up to two years ahead. Anything else is a typo (year 2062) that would sit in the agenda forever.
 */
export function visitDateInRange(when: Date, now = new Date()): boolean {
  const time = when.getTime();
  return time >= now.getTime() - 366 * DAY_MS && time <= now.getTime() + 2 * 366 * DAY_MS;
}

/**
 * The schedule / edit form (shared by the dialog and the action). The date-time is what a
 * `<input type="datetime-local">` gives, read as the broker's local time (America/Fortaleza).
 */
export const visitFormSchema = z.object(
  {
    lead_id: z.string({ error: VISIT_FIELD_MESSAGES.lead }).check(z.refine(isUuid, { error: VISIT_FIELD_MESSAGES.lead })),
    property_id: z.pipe(
      z.optional(z.nullable(z.string({ error: VISIT_FIELD_MESSAGES.property }))),
      z.transform((value) => value?.trim() || null),
    ).check(z.refine((value) => value === null || isUuid(value), { error: VISIT_FIELD_MESSAGES.property })),
    scheduled_at: z.pipe(
      z.string({ error: VISIT_FIELD_MESSAGES.when }).check(
        z.refine((value) => parseBrokerDateTime(value) !== null, { error: VISIT_FIELD_MESSAGES.when }),
        z.refine((value) => {
          const when = parseBrokerDateTime(value);
          return when === null || visitDateInRange(when);
        }, { error: VISIT_FIELD_MESSAGES.whenRange }),
      ),
      z.transform((value) => parseBrokerDateTime(value)!),
    ),
    notes: optionalText(1000, VISIT_FIELD_MESSAGES.notes, { multiline: true, invalid: VISIT_FIELD_MESSAGES.notesInvalid }),
  },
  { error: "Dados inválidos" },
);

export type VisitFormInput = z.input<typeof visitFormSchema>;
export type VisitFormValues = z.output<typeof visitFormSchema>;

export const visitStatusSchema = z.enum(VISIT_STATUS_VALUES, { error: VISIT_FIELD_MESSAGES.status });
