import { describe, expect, it } from "vitest";
import { isNeighbourhoodSlug, neighbourhoodHrefOf, neighbourhoodPath, neighbourhoodSlug } from "./slug";

describe("neighbourhoodSlug", () => {
  it.each([
    ["Ponta Negra", "ponta-negra"],
    ["Capim Macio", "capim-macio"],
    ["Tirol", "tirol"],
    ["Petrópolis", "petropolis"],
    ["Lagoa Nova", "lagoa-nova"],
    ["Candelária", "candelaria"],
    ["Nova Parnamirim", "nova-parnamirim"],
    ["Parque das Nações", "parque-das-nacoes"],
    ["Conjunto Mirassol (Capim Macio)", "conjunto-mirassol-capim-macio"],
    ["  ponta   NEGRA  ", "ponta-negra"],
    ["Cidade da Esperança/Zona Oeste", "cidade-da-esperanca-zona-oeste"],
    ["Bairro 13 de Maio", "bairro-13-de-maio"],
    ["Pium – Nísia Floresta", "pium-nisia-floresta"],
  ])("%s → %s", (name, slug) => {
    expect(neighbourhoodSlug(name)).toBe(slug);
    expect(isNeighbourhoodSlug(slug)).toBe(true);
  });

  it("gives the same slug to spellings that differ only in accents, case or spaces", () => {
    expect(neighbourhoodSlug("Petropolis")).toBe(neighbourhoodSlug("PETRÓPOLIS"));
    expect(neighbourhoodSlug("Candelaria ")).toBe(neighbourhoodSlug("candelária"));
  });

  it("gives an empty slug to a name without letters or digits", () => {
    expect(neighbourhoodSlug("—")).toBe("");
    expect(isNeighbourhoodSlug("")).toBe(false);
  });

  it("builds the page's path", () => {
    expect(neighbourhoodPath("Lagoa Nova")).toBe("/imoveis/bairro/lagoa-nova");
  });
});

describe("isNeighbourhoodSlug", () => {
  it.each(["Ponta-Negra", "ponta--negra", "-tirol", "tirol-", "petrópolis", "tirol/x", "a".repeat(121), "../etc"])("refuses %j", (value) => {
    expect(isNeighbourhoodSlug(value)).toBe(false);
  });
});

describe("neighbourhoodHrefOf (the property page's link)", () => {
  it("links a listing on the market to its neighbourhood's page", () => {
    expect(neighbourhoodHrefOf({ neighborhood: "Candelária", status: "disponivel" })).toBe("/imoveis/bairro/candelaria");
    expect(neighbourhoodHrefOf({ neighborhood: "Tirol", status: "em_negociacao" })).toBe("/imoveis/bairro/tirol");
  });

  it("gives no link for a sold or rented listing, or a name without letters", () => {
    expect(neighbourhoodHrefOf({ neighborhood: "Tirol", status: "vendido" })).toBeNull();
    expect(neighbourhoodHrefOf({ neighborhood: "Tirol", status: "alugado" })).toBeNull();
    expect(neighbourhoodHrefOf({ neighborhood: "--", status: "disponivel" })).toBeNull();
  });
});
