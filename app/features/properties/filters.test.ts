import { describe, expect, it } from "vitest";
import { CODIGO_MAX, codigoTooLong, LIST_QUERY_PARAMS, listSearchParams, parseListFilters } from "./filters";

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

describe("the listing's filters (issue 22, decision 017)", () => {
  it("reads every new filter from the URL and writes it back the same way", () => {
    const filters = parseListFilters(
      new URLSearchParams("suites=2&area_min=60&area_max=120&condominio_max=900&carac=piscina&carac=academia&financiamento=1&mobiliado=1&vendidos=1"),
    );
    expect(filters).toMatchObject({
      suites: "2",
      areaMin: 60,
      areaMax: 120,
      condominioMax: 900,
      carac: ["academia", "piscina"],
      financiamento: true,
      mobiliado: true,
      vendidos: true,
    });
    expect(listSearchParams(filters)).toBe(
      "suites=2&area_min=60&area_max=120&condominio_max=900&carac=academia&carac=piscina&financiamento=1&mobiliado=1&vendidos=1",
    );
  });

  it("ignores bad values, as the list does for its other filters", () => {
    const filters = parseListFilters(
      new URLSearchParams("suites=9&area_min=-5&area_max=abc&condominio_max=1e9&carac=jacuzzi&carac=piscina&carac=piscina&financiamento=sim&mobiliado=0&vendidos=true"),
    );
    expect(filters).toMatchObject({ suites: "all", areaMin: null, areaMax: null, condominioMax: null, carac: ["piscina"], financiamento: false, mobiliado: false, vendidos: false });
    expect(parseListFilters(new URLSearchParams("area_min=0&condominio_max=100001&area_max=100001")).areaMin).toBeNull();
    expect(parseListFilters(new URLSearchParams("condominio_max=100001")).condominioMax).toBeNull();
    expect(parseListFilters(new URLSearchParams("area_min=1.5")).areaMin).toBeNull();
    expect(listSearchParams(parseListFilters(new URLSearchParams("")))).toBe("");
  });

  it("swaps an área range given upside down", () => {
    const filters = parseListFilters(new URLSearchParams("area_min=200&area_max=50"));
    expect([filters.areaMin, filters.areaMax]).toEqual([50, 200]);
  });

  it("writes each feature once and sorted, whatever order the form gave", () => {
    expect(listSearchParams({ carac: ["varanda", "academia", "varanda"] })).toBe("carac=academia&carac=varanda");
  });

  it("names every parameter it reads in LIST_QUERY_PARAMS (the page cache keys them)", () => {
    const query = listSearchParams(
      parseListFilters(new URLSearchParams("codigo=A&tipo=casa&finalidade=venda&bairro=x&quartos=2&vagas=1&preco_min=100000&preco_max=200000&suites=1&area_min=1&area_max=2&condominio_max=3&carac=piscina&financiamento=1&mobiliado=1&vendidos=1")),
    );
    expect([...new Set(new URLSearchParams(query).keys())].every((name) => (LIST_QUERY_PARAMS as readonly string[]).includes(name))).toBe(true);
    expect(new Set(new URLSearchParams(query).keys()).size).toBe(LIST_QUERY_PARAMS.length - 1);
  });
});
