import { describe, expect, it } from "vitest";
import { type MatchListing, type MatchProfile, matchReasons, profileSummary, reasonLine, shortPrice, softScore } from "./reasons";

const profile: MatchProfile = {
  purpose: "venda",
  types: ["apartamento"],
  neighborhoods: ["Capim Macio"],
  price_min: null,
  price_max: 600000,
  min_bedrooms: 3,
  min_suites: null,
  min_parking: 2,
  min_area: null,
  features: ["piscina", "varanda"],
  accepts_financing: false,
};

const listing: MatchListing = {
  type: "apartamento",
  purpose: "venda",
  neighborhood: "Capim Macio",
  price: 590000,
  bedrooms: 3,
  suites: 1,
  parking_spaces: null,
  area: 92,
  features: ["varanda"],
  accepts_financing: null,
};

describe("matchReasons", () => {
  it("writes one line per criterion, as the issue shows them", () => {
    expect(matchReasons(profile, listing).map(reasonLine)).toEqual([
      "Venda ✓",
      "Apartamento ✓",
      "Capim Macio ✓",
      "R$ 590 mil ✓",
      "3 quartos ✓",
      "vagas não informadas ✗",
      "sem piscina ✗",
      "Varanda ✓",
    ]);
  });

  it("compares neighbourhoods without accents or case, and flags a hard miss", () => {
    const reasons = matchReasons({ ...profile, neighborhoods: ["capim macío"], price_max: 500000 }, listing);
    expect(reasons.find((r) => r.key === "neighborhood")?.ok).toBe(true);
    expect(reasons.find((r) => r.key === "price")).toEqual({ key: "price", text: "R$ 590 mil", ok: false, hard: true });
  });

  it("'aceita financiamento' is a hard criterion when asked", () => {
    const reasons = matchReasons({ ...profile, accepts_financing: true }, listing);
    expect(reasons.at(-1)).toEqual({ key: "financing", text: "Não aceita financiamento", ok: false, hard: true });
  });

  it("scores the soft criteria met", () => {
    expect(softScore(profile, listing)).toBe(2); // 3 quartos, varanda
    expect(softScore({ ...profile, price_min: 500000, min_area: 90 }, { ...listing, parking_spaces: 2, features: ["piscina", "varanda"] })).toBe(6);
  });
});

describe("shortPrice and profileSummary", () => {
  it("abbreviates prices", () => {
    expect(shortPrice(590000)).toBe("R$ 590 mil");
    expect(shortPrice(1250000)).toBe("R$ 1,25 mi");
    expect(shortPrice(2500)).toBe("R$ 2.500");
  });
  it("summarises a profile in one line", () => {
    expect(profileSummary(profile)).toBe("Venda · Apartamento · Capim Macio · até R$ 600 mil · 3+ quartos · 2+ vagas · Piscina, Varanda");
  });
});
