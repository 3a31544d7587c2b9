import { describe, expect, it } from "vitest";
import { csvDocument, csvField, neutralizeFormula } from "./csv";

describe("csvField", () => {
  it("leaves plain text alone", () => {
    expect(csvField("São João")).toBe("São João");
    expect(csvField("Casa - 3 quartos")).toBe("Casa - 3 quartos");
    expect(csvField(null)).toBe("");
  });

  it("quotes ';', ',', quotes, tabs and line breaks", () => {
    expect(csvField("a;b")).toBe('"a;b"');
    expect(csvField("Natal, RN")).toBe('"Natal, RN"');
    expect(csvField('diz "oi"')).toBe('"diz ""oi"""');
    expect(csvField("a\tb")).toBe('"a\tb"');
    expect(csvField("linha 1\r\nlinha 2")).toBe('"linha 1\r\nlinha 2"');
  });

  it("defuses a formula at the start and wherever a reader may start a cell", () => {
    expect(csvField("=1+2")).toBe(`"'=1+2"`);
    expect(csvField("@SUM(A1)")).toBe(`"'@SUM(A1)"`);
    expect(csvField("\t=1")).toBe(`"'\t'=1"`);
    expect(csvField("Bia,=1+2,")).toBe(`"Bia,'=1+2,"`);
    expect(csvField("a;-1")).toBe(`"a;'-1"`);
    expect(csvField("Quer:\n- 3 quartos")).toBe(`"Quer:\n'- 3 quartos"`);
    // A comma followed by a space is not a cell start that a formula can use.
    expect(csvField("Casa, -10%")).toBe('"Casa, -10%"');
  });

  it("writes our own numbers as they are, quoted when they hold a comma", () => {
    expect(csvField("-2,50", { trusted: true })).toBe('"-2,50"');
    expect(csvField("12", { trusted: true })).toBe("12");
  });

  it("neutralizeFormula only looks at the start (XLSX text cells)", () => {
    expect(neutralizeFormula("-5")).toBe("'-5");
    expect(neutralizeFormula("a,=1")).toBe("a,=1");
  });

  it("csvDocument: BOM, ';' and CRLF", () => {
    expect(csvDocument([["a", "b"], ["1", "2"]])).toBe("\uFEFFa;b\r\n1;2\r\n");
  });
});
