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
