import { describe, expect, it } from "vitest";
import { ICON_NAMES } from "~/components/icons/names";
import { PROPERTY_FEATURES } from "~/db/values";
import { FEATURES } from "./features";
import { COMMON_FEATURES } from "./filters";
import { featureFilterOptions, listingPresentation } from "./listing-facts";
import { EMPTY_LISTING_DETAILS } from "./types";

const nbsp = (text: string) => text.replace(/\u00a0/g, " ");
const plain = <T,>(value: T): T => JSON.parse(nbsp(JSON.stringify(value)));

describe("listingPresentation (the property page's issue-22 blocks)", () => {
  it("shows only the price for a listing that said nothing else (an old one)", () => {
    const shown = listingPresentation({ ...EMPTY_LISTING_DETAILS, purpose: "venda", price: 500000 });
    expect(plain(shown)).toEqual({ values: [{ label: "Valor de venda", value: "R$ 500.000" }], facts: [], badges: [], features: [] });
  });

  it("gives a rent its condomínio, IPTU per year and month, and the monthly total", () => {
    const shown = plain(listingPresentation({ ...EMPTY_LISTING_DETAILS, purpose: "aluguel", price: 2500, condo_fee: 600, iptu_yearly: 1800 }));
    expect(shown.values).toEqual([
      { label: "Aluguel", value: "R$ 2.500/mês" },
      { label: "Condomínio", value: "R$ 600/mês" },
      { label: "IPTU", value: "R$ 1.800/ano", note: "R$ 150/mês em média" },
      { label: "Total mensal", value: "R$ 3.250/mês", note: "Aluguel + condomínio + IPTU" },
    ]);
  });

  it("leaves a rent's total out when it would only repeat the rent, and a sale never has one", () => {
    expect(listingPresentation({ ...EMPTY_LISTING_DETAILS, purpose: "aluguel", price: 2500 }).values.map((value) => value.label)).toEqual(["Aluguel"]);
    expect(listingPresentation({ ...EMPTY_LISTING_DETAILS, purpose: "venda", price: 900000, condo_fee: 700 }).values.map((value) => value.label)).toEqual([
      "Valor de venda",
      "Condomínio",
    ]);
  });

  it("lists the facts that were said, and the sale conditions as badges", () => {
    const shown = plain(
      listingPresentation({
        ...EMPTY_LISTING_DETAILS,
        purpose: "venda",
        price: 900000,
        suites: 2,
        total_area: 130,
        floor: 7,
        total_floors: 15,
        year_built: 2015,
        furnished: "semimobiliado",
        pets_allowed: false,
        accepts_financing: true,
        accepts_fgts: false,
        accepts_exchange: true,
        // Dropped by the server for sales; never shown on one.
        rental_guarantees: ["fiador"],
      }),
    );
    expect(shown.facts).toEqual([
      { label: "Suítes", value: "2" },
      { label: "Área total", value: "130 m²" },
      { label: "Andar", value: "7º andar de 15" },
      { label: "Ano de construção", value: "2015" },
      { label: "Mobília", value: "Semimobiliado" },
      { label: "Aceita animais", value: "Não" },
    ]);
    expect(shown.badges).toEqual(["Aceita financiamento", "Aceita permuta"]);
  });

  it("names a rent's guarantees and gives it no sale badges", () => {
    const shown = listingPresentation({ ...EMPTY_LISTING_DETAILS, purpose: "aluguel", price: 2000, rental_guarantees: ["fiador", "caucao"], accepts_financing: true });
    expect(shown.facts).toEqual([{ label: "Garantias", value: "Fiador, Caução" }]);
    expect(shown.badges).toEqual([]);
    expect(listingPresentation({ ...EMPTY_LISTING_DETAILS, purpose: "aluguel", price: 2000, rental_guarantees: ["fiador"] }).facts).toEqual([
      { label: "Garantia", value: "Fiador" },
    ]);
  });

  it("shows the térreo (andar 0)", () => {
    expect(listingPresentation({ ...EMPTY_LISTING_DETAILS, purpose: "venda", price: 1, floor: 0 }).facts).toEqual([{ label: "Andar", value: "Térreo" }]);
  });

  it("groups the features with their icons, unknown keys dropped", () => {
    const shown = listingPresentation({ ...EMPTY_LISTING_DETAILS, purpose: "venda", price: 1, features: ["academia", "varanda", "nada", "piscina"] });
    expect(shown.features).toEqual([
      { label: "Do imóvel", features: [{ label: "Varanda", icon: "door-open" }] },
      {
        label: "Do condomínio",
        features: [
          { label: "Piscina", icon: "waves-ladder" },
          { label: "Academia", icon: "dumbbell" },
        ],
      },
    ]);
  });

  it("finds every catalogue icon in the sprite", () => {
    const missing = PROPERTY_FEATURES.map((key) => FEATURES[key].icon).filter((icon) => !(ICON_NAMES as readonly string[]).includes(icon));
    expect(missing).toEqual([]);
  });
});

describe("featureFilterOptions", () => {
  it("offers every feature once: the common ones first, the rest by label", () => {
    const { common, more } = featureFilterOptions();
    expect(common.map((option) => option.key)).toEqual([...COMMON_FEATURES]);
    expect([...common, ...more].map((option) => option.key).sort()).toEqual([...PROPERTY_FEATURES].sort());
    const labels = more.map((option) => option.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, "pt-BR")));
  });
});
