import { describe, expect, it } from "vitest";
import { brokerDay, endOfBrokerDay, formatBRL, formatDate, parseBrokerDateTime, startOfMonthInBrokerZone, toBrokerDateTimeInput } from "./format";

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
