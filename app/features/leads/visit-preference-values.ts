import { brokerDay } from "~/lib/format";

/**
 * The booking form's preferred days (issue 25): the values the form shows, without zod, so the
 * public pages load them with the form and the schema (visit-preferences.ts) stays on demand
 * (docs/decisions/003-javascript-budget.md).
 */

export const VISIT_PERIODS = ["manha", "tarde", "noite"] as const;
export type VisitPeriod = (typeof VISIT_PERIODS)[number];
export const VISIT_PERIOD_LABELS: Record<VisitPeriod, string> = { manha: "Manhã", tarde: "Tarde", noite: "Noite" };
export type VisitPreference = { day: string; period?: VisitPeriod };

export const PREFERENCE_SLOTS = [1, 2, 3] as const;
export const PREFERENCE_DAYS_AHEAD = 60;

export const PREFERENCE_MESSAGES = {
  day: (n: number) => `${n}º dia preferido: escolha uma data entre hoje e os próximos ${PREFERENCE_DAYS_AHEAD} dias`,
  period: (n: number) => `Período do ${n}º dia inválido: escolha manhã, tarde ou noite`,
  periodWithoutDay: (n: number) => `Escolha o ${n}º dia preferido ou deixe o período em branco`,
};

/** The first and last day a visitor may choose ("2026-11-27"), in the broker's calendar. */
export function preferenceRange(now = new Date()): { min: string; max: string } {
  return { min: brokerDay(now), max: brokerDay(new Date(now.getTime() + PREFERENCE_DAYS_AHEAD * 86_400_000)) };
}
