import { z } from "zod";
import { brokerDay } from "~/lib/format";

/**
 * The reports' period (issue 12): one of a few presets or a custom range of the broker's
 * calendar days (America/Fortaleza), kept in the URL (?periodo=…&de=…&ate=…). Every figure is
 * shown beside the previous period of the same number of days, which ends the day before.
 * Pure code: the page, the loaders and the exports read the URL the same way.
 */

export const PERIOD_PRESETS = ["mes", "mes-passado", "30d", "90d", "ano", "personalizado"] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export const PERIOD_LABELS: Record<PeriodPreset, string> = {
  mes: "Este mês",
  "mes-passado": "Mês passado",
  "30d": "Últimos 30 dias",
  "90d": "Últimos 90 dias",
  ano: "Este ano",
  personalizado: "Personalizado",
};

export const DEFAULT_PERIOD: PeriodPreset = "30d";
/** A custom range may span at most this many days (ten years): the queries stay bounded. */
export const MAX_PERIOD_DAYS = 3660;

export const PERIOD_MESSAGES = {
  unknownPreset: "Período desconhecido.",
  badDate: "Informe as datas no formato AAAA-MM-DD.",
  order: "A data inicial deve ser anterior ou igual à final.",
  tooLong: `O período pode ter no máximo ${MAX_PERIOD_DAYS} dias.`,
} as const;

/** A range of whole broker days, both ends included ("YYYY-MM-DD"). */
export type DayRange = { from: string; to: string };

export type Period = DayRange & {
  preset: PeriodPreset;
  days: number;
  previous: DayRange;
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day, "YYYY-MM-DD" (refuses 2026-02-30), between the years 2000 and 2100. */
export function isDay(value: string): boolean {
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  if (year < 2000 || year > 2100) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;
const fromNumber = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return fromNumber(dayNumber(day) + days);
}

export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from) + 1;
}

/** The first instant of a broker day (Fortaleza is UTC−3 all year: midnight there is 03:00 UTC). */
export function dayStart(day: string): Date {
  return new Date(`${day}T03:00:00.000Z`);
}

/** The instants a range covers: [start, end). */
export function rangeInstants(range: DayRange): { start: Date; end: Date } {
  return { start: dayStart(range.from), end: dayStart(addDays(range.to, 1)) };
}

const queryShape = z.object({
  periodo: z.enum(PERIOD_PRESETS, { error: PERIOD_MESSAGES.unknownPreset }).default(DEFAULT_PERIOD),
  de: z.string().max(20).optional(),
  ate: z.string().max(20).optional(),
});

export type PeriodResult = { ok: true; period: Period } | { ok: false; message: string };

/** The period a URL asks for, relative to `now`; a clear message for anything malformed. */
export function parsePeriod(params: URLSearchParams, now = new Date()): PeriodResult {
  const parsed = queryShape.safeParse({
    periodo: params.get("periodo") || undefined,
    de: params.get("de") || undefined,
    ate: params.get("ate") || undefined,
  });
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? PERIOD_MESSAGES.unknownPreset };
  const today = brokerDay(now);
  const [year, month] = today.split("-");
  let range: DayRange;
  switch (parsed.data.periodo) {
    case "mes":
      range = { from: `${year}-${month}-01`, to: today };
      break;
    case "mes-passado": {
      const firstOfThis = `${year}-${month}-01`;
      const lastOfPrevious = addDays(firstOfThis, -1);
      range = { from: `${lastOfPrevious.slice(0, 7)}-01`, to: lastOfPrevious };
      break;
    }
    case "30d":
      range = { from: addDays(today, -29), to: today };
      break;
    case "90d":
      range = { from: addDays(today, -89), to: today };
      break;
    case "ano":
      range = { from: `${year}-01-01`, to: today };
      break;
    case "personalizado": {
      const { de, ate } = parsed.data;
      if (!de || !ate || !isDay(de) || !isDay(ate)) return { ok: false, message: PERIOD_MESSAGES.badDate };
      if (de > ate) return { ok: false, message: PERIOD_MESSAGES.order };
      if (daysBetween(de, ate) > MAX_PERIOD_DAYS) return { ok: false, message: PERIOD_MESSAGES.tooLong };
      range = { from: de, to: ate };
      break;
    }
  }
  const days = daysBetween(range.from, range.to);
  const previous = { from: addDays(range.from, -days), to: addDays(range.from, -1) };
  return { ok: true, period: { preset: parsed.data.periodo, ...range, days, previous } };
}

/** The URL parameters that name a period (for links and export URLs). */
export function periodSearch(period: Pick<Period, "preset" | "from" | "to">): URLSearchParams {
  const search = new URLSearchParams({ periodo: period.preset });
  if (period.preset === "personalizado") {
    search.set("de", period.from);
    search.set("ate", period.to);
  }
  return search;
}

/** "01/11/2026 a 23/11/2026" */
export function formatRange(range: DayRange): string {
  const show = (day: string) => day.split("-").reverse().join("/");
  return range.from === range.to ? show(range.from) : `${show(range.from)} a ${show(range.to)}`;
}
