/**
 * "há 2 dias", "em 3 horas": how long ago (or how soon) an instant is, in Portuguese. Pages pass
 * the `now` their loader returned, so the server and the browser render the same text and
 * hydration matches; the next revalidation brings a fresh `now`.
 */
const relative = new Intl.RelativeTimeFormat("pt-BR", { numeric: "always" });

const UNITS: [unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
  ["year", 365 * 86_400],
  ["month", 30 * 86_400],
  ["week", 7 * 86_400],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

export function formatRelative(value: Date | string, now: Date | string): string {
  const seconds = (new Date(value).getTime() - new Date(now).getTime()) / 1000;
  const size = Math.abs(seconds);
  if (size < 60) return "agora";
  for (const [unit, length] of UNITS) {
    if (size >= length) return relative.format(Math.trunc(seconds / length), unit);
  }
  return "agora";
}
