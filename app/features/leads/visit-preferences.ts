import * as z from "zod/mini";

/**
 * The booking form's preferred days (issue 25, item 6): up to three days within the next 60, each
 * with an optional period, so the broker proposes a time that suits. Shared by the form and the
 * action; stored on the lead (leads.visit_preferences).
 */

export * from "./visit-preference-values";
import { PREFERENCE_MESSAGES, PREFERENCE_SLOTS, preferenceRange, VISIT_PERIODS, type VisitPeriod, type VisitPreference, VISIT_PERIOD_LABELS } from "./visit-preference-values";

function isDayInRange(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T12:00:00Z`);
  // "2026-02-30" is no day.
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  const { min, max } = preferenceRange();
  return value >= min && value <= max;
}

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

const preferredDay = (n: number) =>
  z.pipe(z.optional(z.unknown()), z.transform(blankToUndefined)).check(
    z.refine((value) => value === undefined || isDayInRange(value), { error: PREFERENCE_MESSAGES.day(n) }),
  );

const preferredPeriod = (n: number) =>
  z.pipe(z.optional(z.unknown()), z.transform(blankToUndefined)).check(
    z.refine((value) => value === undefined || (VISIT_PERIODS as readonly string[]).includes(value), { error: PREFERENCE_MESSAGES.period(n) }),
  );

/** The form's fields: pref_day_1, pref_period_1, … */
export const preferenceFields = {
  pref_day_1: preferredDay(1),
  pref_period_1: preferredPeriod(1),
  pref_day_2: preferredDay(2),
  pref_period_2: preferredPeriod(2),
  pref_day_3: preferredDay(3),
  pref_period_3: preferredPeriod(3),
};

type PreferenceValues = { [K in keyof typeof preferenceFields]?: string };

/** A period chosen for a slot with no day: the first such slot, or null. */
export function periodWithoutDay(values: PreferenceValues): number | null {
  for (const n of PREFERENCE_SLOTS) {
    if (values[`pref_period_${n}`] && !values[`pref_day_${n}`]) return n;
  }
  return null;
}

/** The validated fields as stored: the filled days in order, or null when none. */
export function preferencesOf(values: PreferenceValues): VisitPreference[] | null {
  const list = PREFERENCE_SLOTS.flatMap((n) => {
    const day = values[`pref_day_${n}`];
    const period = values[`pref_period_${n}`] as VisitPeriod | undefined;
    return day ? [period ? { day, period } : { day }] : [];
  });
  return list.length > 0 ? list : null;
}

/** "Sáb., 05/12 — Tarde": how the CRM shows a preference. */
export function preferenceLabel(preference: VisitPreference): string {
  const [year, month, day] = preference.day.split("-");
  const weekday = new Intl.DateTimeFormat("pt-BR", { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(+year, +month - 1, +day)));
  const name = weekday.charAt(0).toUpperCase() + weekday.slice(1);
  return `${name} ${day}/${month}/${year}${preference.period ? ` — ${VISIT_PERIOD_LABELS[preference.period]}` : ""}`;
}

/** A lead's stored preferences (none is null) as labels. */
export function preferenceLabels(list: VisitPreference[] | null): string[] {
  return (list ?? []).map(preferenceLabel);
}
