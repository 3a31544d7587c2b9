import { describe, expect, it } from "vitest";
import { csvCell } from "./export-document.server";
import { parsePersonQuery } from "./schema";

describe("parsePersonQuery", () => {
  it("reads a phone in any formatting, with or without +55, as digit candidates", () => {
    expect(parsePersonQuery("(84) 98765-4321")).toEqual({ ok: true, query: { kind: "phone", digits: ["84987654321", "5584987654321"] } });
    expect(parsePersonQuery("+55 84 98765-4321")).toEqual({ ok: true, query: { kind: "phone", digits: ["5584987654321", "84987654321"] } });
    expect(parsePersonQuery("84 3201.1234")).toEqual({ ok: true, query: { kind: "phone", digits: ["8432011234", "558432011234"] } });
  });
  it("reads an e-mail in any case, trimmed", () => {
    expect(parsePersonQuery("  Maria.Silva@Exemplo.COM ")).toEqual({ ok: true, query: { kind: "email", email: "maria.silva@exemplo.com" } });
  });
  it("refuses what is neither, in Portuguese", () => {
    expect(parsePersonQuery("")).toEqual({ ok: false, message: "Informe um telefone ou um e-mail" });
    expect(parsePersonQuery(undefined)).toEqual({ ok: false, message: "Informe um telefone ou um e-mail" });
    for (const value of ["Maria", "123", "84 9876 5432 1234 5", "maria@", "a b@c.d", "849876543a1", ["84987654321"]]) {
      expect(parsePersonQuery(value)).toMatchObject({ ok: false });
    }
  });
});

describe("csvCell", () => {
  it("quotes separators, quotes and line breaks, and defuses formulas", () => {
    expect(csvCell("São João")).toBe("São João");
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell('diz "oi"')).toBe('"diz ""oi"""');
    expect(csvCell("linha 1\nlinha 2")).toBe('"linha 1\nlinha 2"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell("+5584")).toBe(`"'+5584"`);
    expect(csvCell("Bia,=1+2,")).toBe(`"Bia,'=1+2,"`);
    expect(csvCell(null)).toBe("");
  });
});
