/**
 * Formatting in the broker's language and time zone. Servers run in UTC and the broker lives in
 * America/Fortaleza (UTC−3): dates are always formatted in that zone, on the server and in the
 * browser alike, so hydration sees the same text.
 */
export const BROKER_TIME_ZONE = "America/Fortaleza";

/*
 * Numbers and dates are formatted by hand, not with Intl. The first Intl formatter a page creates
 * loads the locale's ICU data: 25–115 ms on the main thread of a fresh tab (measured in the
 * system Chromium), inside the task that evaluates this module on every public page (issue 10,
 * total blocking time). The output is Intl's pt-BR output, character for character (format.test.ts
 * compares both over thousands of values), and the same on the server and in any browser, whatever
 * ICU version each has, so hydration never sees two spellings.
 */

/** "1250000" → "1.250.000". */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
}

/** Beyond this String() writes exponents (and NaN/∞ no form accepts): Intl answers those. */
const PLAIN_LIMIT = 1e21;

/**
 * pt-BR digits with at most `fractionDigits` decimals, trailing zeros dropped; null when Intl must
 * answer. Rounded as Intl rounds: half away from zero, on the shortest decimal that reads back as
 * the same double ("1.005" → "1,01", although the double itself is 1.00499999…).
 */
function decimal(value: number, fractionDigits: 0 | 2): { sign: string; text: string } | null {
  const abs = Math.abs(value);
  if (!Number.isFinite(value) || abs >= PLAIN_LIMIT) return null;
  // Below 1e-6 String() writes an exponent; such values round to 0 at two decimals anyway.
  const [whole, fraction = ""] = abs < 1e-6 ? ["0"] : String(abs).split(".");
  const roundUp = (fraction[fractionDigits] ?? "0") >= "5";
  const units = (BigInt(whole + fraction.slice(0, fractionDigits).padEnd(fractionDigits, "0")) + (roundUp ? 1n : 0n))
    .toString()
    .padStart(fractionDigits + 1, "0");
  const integer = units.slice(0, units.length - fractionDigits);
  const kept = units.slice(units.length - fractionDigits).replace(/0+$/, "");
  // Intl writes the sign of every negative number, -0 and what rounds to 0 included.
  return { sign: value < 0 || Object.is(value, -0) ? "-" : "", text: groupThousands(integer) + (kept ? `,${kept}` : "") };
}

/** R$ 1.250.000 (a no-break space after "R$", as Intl writes it). */
export function formatBRL(value: number): string {
  const parts = decimal(value, 0);
  if (!parts) return new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL", maximumFractionDigits: 0 }).format(value);
  return `${parts.sign}R$\u00a0${parts.text}`;
}

/** 1.234,57: up to two decimals. */
export function formatNumber(value: number): string {
  const parts = decimal(value, 2);
  if (!parts) return new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 }).format(value);
  return parts.sign + parts.text;
}

/** "25/11/2026" in the broker's time zone. */
export function formatDate(value: Date | string): string {
  const [year, month, day] = brokerDay(value).split("-");
  return `${day}/${month}/${year}`;
}

/** "25/11/2026, 14:30" in the broker's time zone. */
export function formatDateTime(value: Date | string): string {
  const local = toBrokerDateTimeInput(value); // "2026-11-25T14:30"
  return `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)}, ${local.slice(11, 16)}`;
}

/** The first instant of the current month in the broker's time zone, as a Date (UTC inside). */
export function startOfMonthInBrokerZone(now = new Date()): Date {
  const [year, month] = brokerDay(now).split("-").map(Number);
  // Fortaleza has no daylight saving time: midnight there is 03:00 UTC.
  return new Date(Date.UTC(year, month - 1, 1, -BROKER_UTC_OFFSET_HOURS, 0, 0));
}

/** Fortaleza is UTC−3 all year (its last summer time ended in February 2002, per the tz database). */
const BROKER_UTC_OFFSET_HOURS = -3;

/**
 * A `<input type="datetime-local">` value ("2026-11-23T14:30") read as the broker's local time.
 * Null for anything else, including impossible dates ("2026-02-30T10:00").
 */
export function parseBrokerDateTime(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const date = new Date(Date.UTC(year, month - 1, day, hour - BROKER_UTC_OFFSET_HOURS, minute));
  // Date.UTC rolls 30 February over into March: refuse rather than store another day.
  if (toBrokerDateTimeInput(date) !== value.trim()) return null;
  return date;
}

/** The `<input type="datetime-local">` value of an instant, in the broker's local time. */
export function toBrokerDateTimeInput(value: Date | string): string {
  const local = new Date(new Date(value).getTime() + BROKER_UTC_OFFSET_HOURS * 3600_000);
  return local.toISOString().slice(0, 16);
}

/** "2026-11-23": the broker's calendar day of an instant (to group an agenda by day). */
export function brokerDay(value: Date | string): string {
  return toBrokerDateTimeInput(value).slice(0, 10);
}

/** The first instant of the broker's next calendar day after `now` (end of "today"). */
export function endOfBrokerDay(now = new Date()): Date {
  const day = brokerDay(now);
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1, -BROKER_UTC_OFFSET_HOURS, 0));
}
