import { describe, expect, it } from "vitest";
import { brokerDay, endOfBrokerDay, formatBRL, formatDate, formatDateTime, formatNumber, parseBrokerDateTime, startOfMonthInBrokerZone, toBrokerDateTimeInput } from "./format";

describe("formatting", () => {
  it("writes BRL with no decimals and a no-break space", () => {
    expect(formatBRL(1250000)).toBe("R$\u00a01.250.000");
    expect(formatBRL(2300.6)).toBe("R$\u00a02.301");
  });

  it("formats dates in the broker's time zone, not the server's", () => {
    // 01:30 UTC on the 1st is still the last day of the previous month in Natal (UTC−3).
    expect(formatDate(new Date("2026-03-01T01:30:00Z"))).toBe("28/02/2026");
  });

  it("starts 'this month' at midnight in Natal", () => {
    expect(startOfMonthInBrokerZone(new Date("2026-03-01T01:30:00Z")).toISOString()).toBe("2026-02-01T03:00:00.000Z");
    expect(startOfMonthInBrokerZone(new Date("2026-03-01T03:00:00Z")).toISOString()).toBe("2026-03-01T03:00:00.000Z");
  });
});

describe("the broker's local date-times", () => {
  it("reads a datetime-local value as Fortaleza time (UTC−3) and writes it back", () => {
    const date = parseBrokerDateTime("2026-11-23T21:30")!;
    expect(date.toISOString()).toBe("2026-11-24T00:30:00.000Z");
    expect(toBrokerDateTimeInput(date)).toBe("2026-11-23T21:30");
    expect(brokerDay(date)).toBe("2026-11-23");
    expect(endOfBrokerDay(date).toISOString()).toBe("2026-11-24T03:00:00.000Z");
  });

  it("refuses what is not a real local date-time", () => {
    for (const value of ["", "2026-02-30T10:00", "2026-13-01T10:00", "2026-11-23 10:00", "2026-11-23T24:00", "amanhã"]) {
      expect(parseBrokerDateTime(value)).toBeNull();
    }
  });
});

describe("the hand-written formatters write what Intl writes (format.ts says why they are not Intl)", () => {
  const intlBRL = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL", minimumFractionDigits: 0, maximumFractionDigits: 0 });
  const intlNumber = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });
  const intlDate = new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Fortaleza", day: "2-digit", month: "2-digit", year: "numeric" });
  const intlDateTime = new Intl.DateTimeFormat("pt-BR", {
    timeZone: "America/Fortaleza",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });

  // A seeded generator: the same values on every run, so a failure can be replayed.
  let seed = 20261125;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

  const numbers = [
    0, -0, 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 0.125, 0.005, 1.005, 1.015, 999.995, 1234.565, 999, 1000, 999999.5, 1e6,
    1250000, 2300.6, 0.001, -0.001, -0.3, 123456789.123, 9007199254740991, 1e20, 9.99e20, 1e21, NaN, Infinity, -Infinity,
  ];
  for (let index = 0; index < 5000; index++) {
    const magnitude = 10 ** Math.floor(random() * 12);
    const value = (random() - 0.2) * magnitude;
    numbers.push(value, Math.round(value * 100) / 100, Math.round(value) + 0.5, Math.round(value * 1000) / 1000);
  }

  it("money and numbers, including halves, negatives, -0, huge values, NaN and ∞", () => {
    for (const value of numbers) {
      expect(formatBRL(value), String(value)).toBe(intlBRL.format(value));
      expect(formatNumber(value), String(value)).toBe(intlNumber.format(value));
    }
  });

  it("dates and date-times in Fortaleza, across midnights, month ends and leap days (2003 on: Fortaleza last kept summer time in 2001–02)", () => {
    const instants = ["2028-02-29T02:59:59Z", "2028-02-29T03:00:00Z", "2026-12-31T23:59:00Z", "2027-01-01T02:59:59.999Z", "2003-01-01T03:00:00Z"];
    for (let index = 0; index < 3000; index++) instants.push(new Date(Date.UTC(2003, 0, 1) + random() * 97 * 365 * 86_400_000).toISOString());
    for (const iso of instants) {
      expect(formatDate(iso), iso).toBe(intlDate.format(new Date(iso)));
      expect(formatDateTime(new Date(iso)), iso).toBe(intlDateTime.format(new Date(iso)));
    }
  });

  it("an invalid date throws, as Intl does, rather than printing nonsense", () => {
    expect(() => formatDate("amanhã")).toThrow(RangeError);
    expect(() => intlDate.format(new Date("amanhã"))).toThrow(RangeError);
  });
});
