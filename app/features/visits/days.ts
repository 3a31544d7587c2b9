import { brokerDay } from "~/lib/format";

/** How the agenda names a day of the broker's calendar (computed on the server, so hydration agrees). */

const weekdayFormat = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "UTC",
  weekday: "long",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});

/** "Hoje", "Amanhã", "Ontem" or the weekday ("Quarta-feira"), and the date ("25/11/2026"). */
export function dayHeading(day: string, now = new Date()): { label: string; date: string } {
  const [year, month, date] = day.split("-").map(Number);
  // Noon UTC of that calendar day: formatting it in UTC gives that day's weekday and date.
  const noon = new Date(Date.UTC(year, month - 1, date, 12));
  const today = brokerDay(now);
  const offset = Math.round((noon.getTime() - new Date(`${today}T12:00:00Z`).getTime()) / 86_400_000);
  const [weekday, formatted] = weekdayFormat.format(noon).split(", ");
  const named = offset === 0 ? "Hoje" : offset === 1 ? "Amanhã" : offset === -1 ? "Ontem" : null;
  const capitalised = weekday.charAt(0).toUpperCase() + weekday.slice(1);
  return named ? { label: named, date: `${weekday}, ${formatted}` } : { label: capitalised, date: formatted };
}
