import { describe, expect, it } from "vitest";
import { formatDocument, isValidCnpj, isValidCpf, normalizeDocument } from "./document";

describe("CPF and CNPJ", () => {
  it("accepts valid CPFs with or without punctuation", () => {
    expect(isValidCpf("529.982.247-25")).toBe(true);
    expect(isValidCpf("52998224725")).toBe(true);
    expect(isValidCpf("123.456.789-09")).toBe(true);
  });
  it("refuses a CPF with a wrong check digit, a wrong length or one repeated digit", () => {
    expect(isValidCpf("529.982.247-24")).toBe(false);
    expect(isValidCpf("529.982.247-15")).toBe(false);
    expect(isValidCpf("5299822472")).toBe(false);
    expect(isValidCpf("111.111.111-11")).toBe(false);
    expect(isValidCpf("000.000.000-00")).toBe(false);
  });
  it("accepts valid CNPJs and refuses wrong ones", () => {
    expect(isValidCnpj("11.222.333/0001-81")).toBe(true);
    expect(isValidCnpj("11222333000181")).toBe(true);
    expect(isValidCnpj("11.222.333/0001-80")).toBe(false);
    expect(isValidCnpj("11.222.333/0001-71")).toBe(false);
    expect(isValidCnpj("11.111.111/1111-11")).toBe(false);
  });
  it("normalises to digits and formats back", () => {
    expect(normalizeDocument(" 529.982.247-25 ")).toBe("52998224725");
    expect(normalizeDocument("11.222.333/0001-81")).toBe("11222333000181");
    expect(normalizeDocument("529.982.247-24")).toBeNull();
    expect(normalizeDocument("abc52998224725")).toBeNull();
    expect(normalizeDocument("123")).toBeNull();
    expect(formatDocument("52998224725")).toBe("529.982.247-25");
    expect(formatDocument("11222333000181")).toBe("11.222.333/0001-81");
  });
});
