import { describe, expect, it } from "vitest";
import { priceText } from "./labels";

describe("property labels", () => {
  it("labels rent per month and a zero price as 'Sob consulta'", () => {
    expect(priceText(2300, "aluguel")).toBe("R$\u00a02.300/mês");
    expect(priceText(780000, "venda")).toBe("R$\u00a0780.000");
    expect(priceText(0, "venda")).toBe("Sob consulta");
  });
});
