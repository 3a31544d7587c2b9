import { describe, expect, it } from "vitest";
import { completenessText, type CompletenessInput, listingCompleteness } from "./completeness";

const photo = (n: number) => `/media/${"a".repeat(8)}-${String(n).padStart(4, "0")}/800.webp`;
const photos = (count: number) => Array.from({ length: count }, (_, index) => photo(index));

/** Everything the portals reward, for an apartment. */
const full: CompletenessInput = {
  type: "apartamento",
  purpose: "venda",
  price: 780000,
  description: "x".repeat(300),
  images: photos(10),
  area: 98,
  total_area: 120,
  bedrooms: 3,
  bathrooms: 2,
  condo_fee: 850,
  iptu_yearly: 1800,
  features: ["varanda", "piscina", "academia", "elevador", "playground"],
  street_address: "Rua Praia de Ponta Negra",
  cep: "59090-000",
  video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  tour_url: null,
};

const empty: CompletenessInput = {
  type: "apartamento",
  price: 0,
  description: "",
  images: [],
  area: null,
  total_area: null,
  bedrooms: null,
  bathrooms: null,
  condo_fee: null,
  iptu_yearly: null,
  features: [],
  street_address: null,
  cep: null,
  video_url: null,
  tour_url: null,
};

describe("listing completeness (issue 22)", () => {
  it("gives 100% only to a listing with everything the portals reward", () => {
    const result = listingCompleteness(full);
    expect(result.percent).toBe(100);
    expect(result.missing).toEqual([]);
    expect(completenessText(result)).toBe("Anúncio 100% completo");
    expect(result.checks.reduce((sum, check) => sum + check.weight, 0)).toBe(100);
  });

  it("gives 0% to an empty apartment and names everything missing, biggest gain first", () => {
    const result = listingCompleteness(empty);
    expect(result.percent).toBe(0);
    expect(result.missing).toEqual([
      "10 fotos",
      "descrição com 300+ caracteres",
      "preço",
      "área",
      "5 características",
      "quartos",
      "banheiros",
      "condomínio",
      "IPTU",
      "endereço e CEP",
      "vídeo ou tour 360°",
    ]);
  });

  it("says what is missing as the meter shows it", () => {
    const result = listingCompleteness({ ...full, iptu_yearly: null, images: photos(5) });
    // 25 × 5/10 + 5 missing: 100 − 12.5 − 5 = 82.5 → 82.
    expect(result.percent).toBe(82);
    expect(completenessText(result)).toBe("Anúncio 82% completo — falta: 5 fotos, IPTU");
    expect(completenessText(listingCompleteness(empty), 3)).toBe("Anúncio 0% completo — falta: 10 fotos, descrição com 300+ caracteres, preço e mais 8");
  });

  it("counts photos, description and features in steps", () => {
    expect(listingCompleteness({ ...full, images: photos(1) }).missing).toEqual(["9 fotos"]);
    expect(listingCompleteness({ ...full, images: photos(14) }).percent).toBe(100);
    // Photos that are not ours do not count (the portals never get them).
    expect(listingCompleteness({ ...full, images: [...photos(9), "https://elsewhere.example/x.jpg"] }).missing).toEqual(["1 foto"]);
    expect(listingCompleteness({ ...full, description: "y".repeat(50) }).percent).toBe(92); // 15 → 7
    expect(listingCompleteness({ ...full, description: "y".repeat(49) }).percent).toBe(85);
    expect(listingCompleteness({ ...full, features: ["varanda", "varanda", "piscina", "academia", "elevador"] }).missing).toEqual(["1 característica"]);
    expect(listingCompleteness({ ...full, street_address: null }).missing).toEqual(["endereço"]);
    expect(listingCompleteness({ ...full, cep: "" }).missing).toEqual(["CEP"]);
    expect(listingCompleteness({ ...full, video_url: null, tour_url: "https://kuula.co/share/x" }).percent).toBe(100);
  });

  it("leaves out what does not apply to the type and scales to what does", () => {
    const plot = { ...full, type: "terreno" as const, bedrooms: null, bathrooms: null, condo_fee: null };
    expect(listingCompleteness(plot).percent).toBe(100);
    // A house's condomínio is optional; its bedrooms are not.
    expect(listingCompleteness({ ...full, type: "casa", condo_fee: null }).percent).toBe(100);
    expect(listingCompleteness({ ...full, type: "casa", bedrooms: null }).missing).toEqual(["quartos"]);
    const shop = listingCompleteness({ ...full, type: "ponto_comercial", bedrooms: null, condo_fee: null, iptu_yearly: null });
    // 90 applicable points, 5 missing: 85/90 = 94.4 → 94.
    expect([shop.percent, shop.missing]).toEqual([94, ["IPTU"]]);
  });
});
