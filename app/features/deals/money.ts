import { formatBRL } from "~/lib/format";

/**
 * Money in whole centavos (issue 24): read from what a person types, written as the site writes
 * prices. Integer arithmetic throughout; a float never holds an amount.
 */

/** The largest amount a form accepts: R$ 1 bilhão, in centavos. */
export const MAX_CENTS = 100_000_000_000;

/**
 * "540.000,00", "540000", "540.000", "R$ 3.450,50" → centavos; null for anything else. A comma
 * is the decimal mark (pt-BR); dots are thousands separators only.
 */
export function parseCents(raw: string): number | null {
  const value = raw.replace(/R\$/i, "").replace(/[\s\u00a0]/g, "");
  const match = /^(\d{1,3}(?:\.\d{3})+|\d{1,12})(?:,(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  const reais = Number(match[1].replace(/\./g, ""));
  const cents = Number((match[2] ?? "0").padEnd(2, "0"));
  const total = reais * 100 + cents;
  return Number.isSafeInteger(total) ? total : null;
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
}

/** "R$ 540.000" as the site writes prices; with centavos when there are any ("R$ 3.450,50"). */
export function formatCents(cents: number): string {
  if (cents % 100 === 0) return formatBRL(cents / 100);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}R$\u00a0${group(String(Math.floor(abs / 100)))},${String(abs % 100).padStart(2, "0")}`;
}

/** The text an amount field starts with: "540.000,00". */
export function centsToInput(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return "";
  return `${group(String(Math.floor(cents / 100)))},${String(cents % 100).padStart(2, "0")}`;
}

/** "6", "6,5", "6.25 %" → hundredths of a percent (600, 650, 625); null outside 0–100. */
export function parsePercentHundredths(raw: string): number | null {
  const value = raw.replace("%", "").trim();
  if (!/^\d{1,3}([.,]\d{1,2})?$/.test(value)) return null;
  const [whole, fraction = ""] = value.replace(",", ".").split(".");
  const hundredths = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return hundredths <= 10_000 ? hundredths : null;
}

/** A percentage as people write it: 6 → "6", 6.5 → "6,5". */
export function formatPercent(percent: number): string {
  const hundredths = Math.round(percent * 100);
  const whole = Math.floor(hundredths / 100);
  const fraction = String(hundredths % 100).padStart(2, "0").replace(/0+$/, "");
  return fraction ? `${whole},${fraction}` : String(whole);
}

/** `percent` of an amount, in centavos, rounded half up (BigInt: exact for any amount we store). */
export function percentOf(cents: number, percentHundredths: number): number {
  return Number((BigInt(cents) * BigInt(percentHundredths) + 5_000n) / 10_000n);
}
