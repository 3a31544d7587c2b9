import { describe, expect, it } from "vitest";
import { maskBRLInput, parseBRLInput, priceToInput } from "./money";

describe("BRL price input", () => {
  it("reads digits as cents, as the broker types them", () => {
    expect(maskBRLInput("")).toBe("0,00");
    expect(maskBRLInput("5")).toBe("0,05");
    expect(maskBRLInput("0,055")).toBe("0,55");
    expect(maskBRLInput("125000000")).toBe("1.250.000,00");
    expect(maskBRLInput("R$ 2.300,00")).toBe("2.300,00");
  });

  it("turns the masked text back into the number, and a stored price into text", () => {
    expect(parseBRLInput("1.250.000,00")).toBe(1250000);
    expect(parseBRLInput("0,05")).toBe(0.05);
    expect(parseBRLInput("780000")).toBe(780000);
    expect(Number.isNaN(parseBRLInput("abc"))).toBe(true);
    expect(priceToInput(2300)).toBe("2.300,00");
  });
});
