import { describe, expect, it } from "vitest";
import { PROFILE_MESSAGES, profileSchema } from "./profile-schema";

const first = (input: unknown) => {
  const parsed = profileSchema.safeParse(input);
  return parsed.success ? null : parsed.error.issues[0]?.message;
};

describe("profileSchema", () => {
  it("reads a form post: lists, a comma-separated neighbourhood text, BRL money, a checkbox", () => {
    const parsed = profileSchema.parse({
      purpose: "venda",
      types: ["apartamento", "casa"],
      neighborhoods: "Capim Macio, Ponta Negra,  capim macio",
      price_min: "400.000,00",
      price_max: "600000",
      min_bedrooms: "3",
      min_suites: "",
      min_parking: "0",
      min_area: "80,5",
      features: "piscina",
      accepts_financing: "on",
    });
    expect(parsed).toEqual({
      purpose: "venda",
      types: ["casa", "apartamento"],
      neighborhoods: ["Capim Macio", "Ponta Negra"],
      price_min: 400000,
      price_max: 600000,
      min_bedrooms: 3,
      min_suites: null,
      min_parking: null,
      min_area: 80.5,
      features: ["piscina"],
      accepts_financing: true,
    });
  });

  it("an empty profile with only the purpose is 'anything for sale'", () => {
    expect(profileSchema.parse({ purpose: "aluguel" })).toMatchObject({ types: [], neighborhoods: [], price_max: null, features: [], accepts_financing: false });
  });

  it("refuses bad values with Portuguese messages", () => {
    expect(first({})).toBe(PROFILE_MESSAGES.purpose);
    expect(first({ purpose: "permuta" })).toBe(PROFILE_MESSAGES.purpose);
    expect(first({ purpose: "venda", types: ["castelo"] })).toBe(PROFILE_MESSAGES.types);
    expect(first({ purpose: "venda", features: ["heliponto"] })).toBe(PROFILE_MESSAGES.features);
    expect(first({ purpose: "venda", price_min: "500000", price_max: "400000" })).toBe(PROFILE_MESSAGES.priceOrder);
    expect(first({ purpose: "venda", price_max: "abc" })).toBe(PROFILE_MESSAGES.priceMax);
    expect(first({ purpose: "venda", price_max: "2000000000" })).toBe(PROFILE_MESSAGES.priceTooHigh);
    expect(first({ purpose: "venda", min_bedrooms: "2.5" })).toBe(PROFILE_MESSAGES.bedrooms);
    expect(first({ purpose: "venda", min_parking: "51" })).toBe(PROFILE_MESSAGES.minimumTooHigh);
    expect(first({ purpose: "venda", neighborhoods: "A" })).toBe(PROFILE_MESSAGES.neighborhood);
    expect(first({ purpose: "venda", neighborhoods: Array.from({ length: 11 }, (_, i) => `Bairro ${i}`) })).toBe(PROFILE_MESSAGES.neighborhoods);
    expect(first({ purpose: "venda", neighborhoods: "Lagoa\u0000Nova" })).toBe(PROFILE_MESSAGES.neighborhood);
    expect(first({ purpose: "venda", accepts_financing: "talvez" })).toBe(PROFILE_MESSAGES.financing);
  });
});
