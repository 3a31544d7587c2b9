import { describe, expect, it } from "vitest";
import { CODIGO_MAX, codigoTooLong, listSearchParams, parseListFilters } from "./filters";

describe("the list's 'Código' filter", () => {
  it("reads the code trimmed and upper-cased, as codes are stored, and writes it back to the URL", () => {
    const filters = parseListFilters(new URLSearchParams("codigo=%20ap-pn-101%20&tipo=casa"));
    expect(filters.codigo).toBe("AP-PN-101");
    expect(listSearchParams(filters)).toBe("codigo=AP-PN-101&tipo=casa");
    expect(parseListFilters(new URLSearchParams("")).codigo).toBe("");
    expect(listSearchParams({ codigo: "  " })).toBe("");
  });

  it("turns control characters into spaces and stops at the longest possible code", () => {
    expect(parseListFilters(new URLSearchParams("codigo=ap%00-1")).codigo).toBe("AP -1");
    const long = "X".repeat(CODIGO_MAX + 1);
    expect(parseListFilters(new URLSearchParams({ codigo: long })).codigo).toHaveLength(CODIGO_MAX);
    expect(codigoTooLong(new URLSearchParams({ codigo: long }))).toBe(true);
    expect(codigoTooLong(new URLSearchParams({ codigo: ` ${"X".repeat(CODIGO_MAX)} ` }))).toBe(false);
    expect(codigoTooLong(new URLSearchParams(""))).toBe(false);
  });
});
