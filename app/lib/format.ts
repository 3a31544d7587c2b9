/**
 * Formatting in the broker's language and time zone. Servers run in UTC and the broker lives in
 * America/Fortaleza (UTC−3): dates are always formatted in that zone, on the server and in the
 * browser alike, so hydration sees the same text.
 */
export const BROKER_TIME_ZONE = "America/Fortaleza";

const brl = new Intl.NumberFormat("pt-BR", {
  style: "currency",
  currency: "BRL",
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/** R$ 1.250.000 (Intl puts a no-break space after "R$"). */
export function formatBRL(value: number): string {
  return brl.format(value);
}

const integer = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });

export function formatNumber(value: number): string {
  return integer.format(value);
}

const dateFormat = new Intl.DateTimeFormat("pt-BR", {
  timeZone: BROKER_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});

const dateTimeFormat = new Intl.DateTimeFormat("pt-BR", {
  timeZone: BROKER_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

export function formatDate(value: Date | string): string {
  return dateFormat.format(new Date(value));
}

export function formatDateTime(value: Date | string): string {
  return dateTimeFormat.format(new Date(value));
}

/** The first instant of the current month in the broker's time zone, as a Date (UTC inside). */
export function startOfMonthInBrokerZone(now = new Date()): Date {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: BROKER_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
  }).formatToParts(now);
  const year = Number(parts.find((part) => part.type === "year")!.value);
  const month = Number(parts.find((part) => part.type === "month")!.value);
  // Fortaleza has no daylight saving time: midnight there is 03:00 UTC.
  return new Date(Date.UTC(year, month - 1, 1, 3, 0, 0));
}

/** Fortaleza is UTC−3 all year (no daylight saving time since 2000). */
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
