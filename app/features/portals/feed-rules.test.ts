import { describe, expect, it } from "vitest";
import { canonicalMediaUrl } from "~/features/media/urls";
import { characterCount, isInPortalFeed, PORTAL_REASONS, portalExclusionReasons, portalPrice, portalTitle, type PortalCandidate } from "./feed-rules";

const photo = canonicalMediaUrl("0b7f3c2e-1a2b-4c3d-9e8f-001122334455");
const ready: PortalCandidate = {
  status: "disponivel",
  publish_to_portals: true,
  images: [photo],
  title: "Apartamento nascente em Ponta Negra",
  description: "Apartamento nascente com três quartos, varanda gourmet e vista para o mar.",
  price: 780000,
};

describe("which listings go to the portals", () => {
  it("lets a complete, available listing in", () => {
    expect(portalExclusionReasons(ready)).toEqual([]);
    expect(isInPortalFeed(ready)).toBe(true);
  });

  it("names every reason, in Portuguese", () => {
    expect(portalExclusionReasons({ ...ready, publish_to_portals: false })).toEqual(["Desativado para portais"]);
    for (const status of ["vendido", "alugado", "em_negociacao"] as const) {
      expect(portalExclusionReasons({ ...ready, status })).toEqual(["Não disponível"]);
    }
    expect(portalExclusionReasons({ ...ready, images: [] })).toEqual(["Sem foto"]);
    expect(portalExclusionReasons({ ...ready, description: "Curta demais." })).toEqual(["Descrição com menos de 50 caracteres"]);
    expect(portalExclusionReasons({ ...ready, price: 0 })).toEqual(["Sem preço"]);
    expect(portalExclusionReasons({ ...ready, title: "Casa boa" })).toEqual(["Título com menos de 10 caracteres"]);
    expect(
      portalExclusionReasons({ ...ready, publish_to_portals: false, status: "vendido", images: [], description: "x", price: 0, title: "x" }),
    ).toEqual(Object.values(PORTAL_REASONS));
  });

  it("counts only our own photos: another site's image or a malformed URL is no photo", () => {
    expect(portalExclusionReasons({ ...ready, images: ["https://example.com/a.jpg", "http://["] })).toEqual([PORTAL_REASONS.noPhoto]);
  });

  it("counts characters, not UTF-16 units, and ignores the spaces around the description", () => {
    expect(characterCount("  🏠🏠  ")).toBe(2);
    const fortyNineEmoji = "🏖".repeat(49);
    expect(portalExclusionReasons({ ...ready, description: `${fortyNineEmoji}      ` })).toEqual([PORTAL_REASONS.shortDescription]);
    expect(portalExclusionReasons({ ...ready, description: `${fortyNineEmoji}!` })).toEqual([]);
  });

  it("sends whole reais: a price that rounds to zero is no price", () => {
    expect(portalPrice(780000.49)).toBe(780000);
    expect(portalPrice("2300.50")).toBe(2301);
    expect(portalExclusionReasons({ ...ready, price: 0.4 })).toEqual([PORTAL_REASONS.noPrice]);
    expect(portalExclusionReasons({ ...ready, price: "0.5" })).toEqual([]);
  });

  it("cuts a long title to 100 characters, never inside an emoji", () => {
    expect(portalTitle("  Casa no Tirol  ")).toBe("Casa no Tirol");
    const exactly = "a".repeat(100);
    expect(portalTitle(exactly)).toBe(exactly);
    const long = `${"🏠".repeat(98)} casa`;
    const cut = portalTitle(long);
    expect([...cut]).toHaveLength(99);
    expect(cut).toBe(`${"🏠".repeat(98)}…`);
    expect(portalTitle(`${"b".repeat(98)} cd`)).toBe(`${"b".repeat(98)}…`);
  });
});
