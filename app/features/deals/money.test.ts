import { describe, expect, it } from "vitest";
import { centsToInput, formatCents, formatPercent, parseCents, parsePercentHundredths, percentOf } from "./money";

describe("money in centavos", () => {
  it("reads what a person types, pt-BR style, into whole centavos", () => {
    expect(parseCents("540.000,00")).toBe(54_000_000);
    expect(parseCents("540000")).toBe(54_000_000);
    expect(parseCents("540.000")).toBe(54_000_000);
    expect(parseCents("R$ 3.450,5")).toBe(345_050);
    expect(parseCents("R$\u00a03.450,50")).toBe(345_050);
    expect(parseCents("0,01")).toBe(1);
    // 0.1 + 0.2 style float error cannot happen: 1.234.567,89 is exactly 123456789.
    expect(parseCents("1.234.567,89")).toBe(123_456_789);
    for (const bad of ["", "abc", "1,234", "1.23", "12.34,00", "-5", "1e6", "540,000.00", "1.0000"]) expect(parseCents(bad), bad).toBeNull();
  });

  it("writes amounts as the site writes prices, with centavos only when there are any", () => {
    expect(formatCents(56_000_000)).toBe("R$\u00a0560.000");
    expect(formatCents(345_050)).toBe("R$\u00a03.450,50");
    expect(formatCents(5)).toBe("R$\u00a00,05");
    expect(centsToInput(56_000_000)).toBe("560.000,00");
    expect(centsToInput(null)).toBe("");
  });

  it("percentages in hundredths, and a percent of an amount rounded half up, exactly", () => {
    expect(parsePercentHundredths("6")).toBe(600);
    expect(parsePercentHundredths("6,5 %")).toBe(650);
    expect(parsePercentHundredths("100")).toBe(10_000);
    expect(parsePercentHundredths("100,01")).toBeNull();
    expect(parsePercentHundredths("-1")).toBeNull();
    expect(formatPercent(6.5)).toBe("6,5");
    expect(formatPercent(6)).toBe("6");
    expect(percentOf(56_000_000, 600)).toBe(3_360_000);
    expect(percentOf(1, 5_000)).toBe(1); // 0,5 centavo rounds up
    expect(percentOf(99_999_999_999, 9_999)).toBe(99_989_999_999);
  });
});
