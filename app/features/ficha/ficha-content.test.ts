import { describe, expect, it } from "vitest";
import type { BrokerProfile } from "~/features/site/broker-profile";
import { fichaContent } from "./ficha-content";
import type { FichaListing } from "./ficha-data.server";

const broker = { name: "Marina", siteName: "Marina Imóveis", creci: "CRECI-RN 1-F", phone: "(84) 90000-0000", email: "m@x.com.br" } as BrokerProfile;

const listing = (overrides: Partial<FichaListing> = {}): FichaListing => ({
  id: "3f2b0a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b",
  codigo: "AP-1",
  title: "Apartamento",
  description: "  Descrição.  ",
  type: "apartamento",
  purpose: "venda",
  status: "disponivel",
  price: 500000,
  area: null,
  total_area: null,
  bedrooms: null,
  suites: null,
  bathrooms: null,
  parking_spaces: null,
  floor: null,
  total_floors: null,
  year_built: null,
  furnished: null,
  pets_allowed: null,
  accepts_financing: null,
  accepts_fgts: null,
  accepts_exchange: null,
  rental_guarantees: [],
  features: [],
  condo_fee: null,
  iptu_yearly: null,
  neighborhood: "Tirol",
  city: "Natal",
  state: "RN",
  street_address: null,
  address_number: null,
  address_complement: null,
  cep: null,
  images: [],
  updated_at: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

describe("fichaContent", () => {
  it("shows nothing where the broker said nothing", () => {
    const content = fichaContent(listing(), broker, "https://x/imoveis/1");
    expect(content.values).toEqual([{ label: "Valor de venda", value: "R$\u00a0500.000" }]);
    expect(content.facts).toEqual([]);
    expect(content.conditions).toEqual([]);
    expect(content.features).toEqual([]);
    expect(content.address).toBeNull();
    expect(content.description).toBe("Descrição.");
    expect(content.kind).toBe("Apartamento · Venda");
  });

  it("a rent with costs gets its monthly total; a rent without them does not", () => {
    const withCosts = fichaContent(listing({ purpose: "aluguel", price: 2000, condo_fee: 500, iptu_yearly: 1200 }), broker, "u");
    expect(withCosts.values.map((pair) => pair.label)).toEqual(["Aluguel", "Condomínio", "IPTU", "Total mensal"]);
    expect(withCosts.values[3].value).toBe("R$\u00a02.600/mês");
    const bare = fichaContent(listing({ purpose: "aluguel", price: 2000 }), broker, "u");
    expect(bare.values.map((pair) => pair.label)).toEqual(["Aluguel"]);
  });

  it("joins street, number, complement and CEP; the status shows when not available", () => {
    const content = fichaContent(
      listing({ street_address: "Rua A", address_number: "10", address_complement: "Apto 2", cep: "59000-000", status: "vendido" }),
      broker,
      "u",
    );
    expect(content.address).toBe("Rua A, 10, Apto 2 · CEP 59000-000");
    expect(content.kind).toBe("Apartamento · Venda · Vendido");
  });

  it("groups features in the catalogue's order and drops unknown keys", () => {
    const content = fichaContent(listing({ features: ["academia", "varanda", "nao_existe"] }), broker, "u");
    expect(content.features).toEqual([
      { label: "Do imóvel", items: ["Varanda"] },
      { label: "Do condomínio", items: ["Academia"] },
    ]);
  });
});
