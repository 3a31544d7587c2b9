import { describe, expect, it } from "vitest";
import { acceptsTexts, areaText, condoFeeText, floorText, iptuTexts, monthlyCost, monthlyTotalText, yesNoText } from "./listing-format";

describe("listing formatters (issue 22)", () => {
  it("shows condomínio per month and IPTU both per year and per month", () => {
    expect(condoFeeText(850)).toBe("R$\u00a0850/mês");
    expect(condoFeeText(null)).toBeNull();
    expect(iptuTexts(1800)).toEqual({ yearly: "R$\u00a01.800/ano", monthly: "R$\u00a0150/mês" });
    expect(iptuTexts(1000)?.monthly).toBe("R$\u00a083/mês");
    expect(iptuTexts(0)).toBeNull();
  });

  it("adds a rent's monthly total, and a sale's running costs", () => {
    const rent = { purpose: "aluguel" as const, price: 2300, condo_fee: 450, iptu_yearly: 1200 };
    expect(monthlyCost(rent)).toEqual({ rent: 2300, condoFee: 450, iptuMonthly: 100, total: 2850 });
    expect(monthlyTotalText(rent)).toBe("R$\u00a02.850/mês");
    expect(monthlyCost({ ...rent, price: 0 })).toBeNull(); // 'Sob consulta'
    expect(monthlyCost({ purpose: "venda", price: 780000, condo_fee: 900, iptu_yearly: null })).toEqual({ rent: null, condoFee: 900, iptuMonthly: null, total: 900 });
    expect(monthlyCost({ purpose: "venda", price: 780000, condo_fee: null, iptu_yearly: null })).toBeNull();
  });

  it("reads areas, floors and yes/no", () => {
    expect(areaText(98)).toBe("98 m²");
    expect(areaText(1234.5)).toBe("1.234,5 m²");
    expect(areaText(null)).toBeNull();
    expect(floorText(0)).toBe("Térreo");
    expect(floorText(3, 12)).toBe("3º andar de 12");
    expect(floorText(null, 12)).toBeNull();
    expect([yesNoText(true), yesNoText(false), yesNoText(null)]).toEqual(["Sim", "Não", null]);
    expect(acceptsTexts({ accepts_financing: true, accepts_fgts: null, accepts_exchange: true })).toEqual(["Aceita financiamento", "Aceita permuta"]);
  });
});
