import { describe, expect, it } from "vitest";
import { formatBRL, formatDate, startOfMonthInBrokerZone } from "./format";

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
