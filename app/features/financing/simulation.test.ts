import { describe, expect, it } from "vitest";
import { monthlyRateFromYearly, priceSchedule, sacSchedule } from "./amortization";
import { initialInput, parseBrazilianNumber, simulate, type SimulatorInput } from "./simulation";

const valid: SimulatorInput = { price: "780.000,00", downPayment: "156.000,00", months: "360", yearlyRate: "11,5" };

describe("parseBrazilianNumber", () => {
  it.each([
    ["450.000,50", 450000.5],
    ["450000,5", 450000.5],
    ["1.250.000", 1250000],
    ["R$ 1.200", 1200],
    ["R$\u00a0780.000,00", 780000],
    ["11,5", 11.5],
    ["11.5", 11.5],
    ["11,5 %", 11.5],
    ["0", 0],
    ["360", 360],
    ["-5", -5],
    [" 12 ", 12],
  ])("%s → %s", (text, expected) => {
    expect(parseBrazilianNumber(text)).toBe(expected);
  });

  it.each(["", "abc", "12abc", "1e5", "1,2,3", "1.2.3", ",", ".", "1.00,5", "Infinity", "NaN", "--1"])("refuses %j", (text) => {
    expect(parseBrazilianNumber(text)).toBeNull();
  });
});

describe("initialInput", () => {
  it("prefills the listing's price, a 20 % down payment, 360 months and the example rate", () => {
    expect(initialInput(780000)).toEqual({ price: "780.000,00", downPayment: "156.000,00", months: "360", yearlyRate: "11,5" });
    expect(initialInput(265999.99).downPayment).toBe("53.200,00");
  });

  it("leaves price and down payment empty when the listing shows no price", () => {
    expect(initialInput(0)).toMatchObject({ price: "", downPayment: "" });
  });
});

describe("simulate", () => {
  it("computes both systems from the principal (price − down payment) and the effective rate", () => {
    const result = simulate(valid);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const monthly = monthlyRateFromYearly(0.115);
    expect(result.principal).toBe(62_400_000);
    expect(result.monthlyRate).toBe(monthly);
    expect(result.sac).toEqual(sacSchedule(62_400_000, monthly, 360));
    expect(result.price).toEqual(priceSchedule(62_400_000, monthly, 360));
  });

  it("accepts 0 % a year, no down payment, 1 month and 420 months", () => {
    expect(simulate({ ...valid, yearlyRate: "0" }).ok).toBe(true);
    expect(simulate({ ...valid, downPayment: "0" }).ok).toBe(true);
    expect(simulate({ ...valid, months: "1" }).ok).toBe(true);
    expect(simulate({ ...valid, months: "420" }).ok).toBe(true);
    expect(simulate({ ...valid, price: "100.000.000,00", downPayment: "0", yearlyRate: "30" }).ok).toBe(true);
  });

  it.each<[Partial<SimulatorInput>, keyof SimulatorInput, string]>([
    [{ price: "" }, "price", "Informe o valor do imóvel."],
    [{ price: "abc" }, "price", "Digite um valor válido, por exemplo 450.000,00."],
    [{ price: "0" }, "price", "O valor do imóvel deve ser maior que zero."],
    [{ price: "-10" }, "price", "O valor do imóvel deve ser maior que zero."],
    [{ price: "100.000.000,01" }, "price", "O valor do imóvel deve ser de no máximo R$ 100.000.000,00."],
    [{ downPayment: "" }, "downPayment", "Informe a entrada (0 se não houver)."],
    [{ downPayment: "x" }, "downPayment", "Digite um valor válido, por exemplo 90.000,00."],
    [{ downPayment: "-1" }, "downPayment", "A entrada não pode ser negativa."],
    [{ downPayment: "780.000,00" }, "downPayment", "A entrada deve ser menor que o valor do imóvel."],
    [{ downPayment: "900.000" }, "downPayment", "A entrada deve ser menor que o valor do imóvel."],
    [{ months: "0" }, "months", "Informe o prazo em meses: um número inteiro de 1 a 420 (35 anos)."],
    [{ months: "421" }, "months", "Informe o prazo em meses: um número inteiro de 1 a 420 (35 anos)."],
    [{ months: "12,5" }, "months", "Informe o prazo em meses: um número inteiro de 1 a 420 (35 anos)."],
    [{ months: "" }, "months", "Informe o prazo em meses: um número inteiro de 1 a 420 (35 anos)."],
    [{ yearlyRate: "30,01" }, "yearlyRate", "Informe a taxa de juros entre 0 e 30 % ao ano."],
    [{ yearlyRate: "-1" }, "yearlyRate", "Informe a taxa de juros entre 0 e 30 % ao ano."],
    [{ yearlyRate: "" }, "yearlyRate", "Informe a taxa de juros entre 0 e 30 % ao ano."],
  ])("%j → %s: %s", (change, field, message) => {
    const result = simulate({ ...valid, ...change });
    expect(result).toEqual({ ok: false, errors: { [field]: message } });
  });

  it("reports every invalid field at once", () => {
    const result = simulate({ price: "", downPayment: "-1", months: "0", yearlyRate: "50" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(["downPayment", "months", "price", "yearlyRate"]);
  });
});
