import { describe, expect, it } from "vitest";
import { type PortalIssuesInput, portalIssues, portalIssuesSummary } from "./portal-checks";

const photo = (n: number) => `/media/photo-${String(n).padStart(4, "0")}/800.webp`;

/** A flat the portals take without a remark. */
const complete: PortalIssuesInput = {
  type: "apartamento",
  purpose: "venda",
  title: "Apartamento em Ponta Negra",
  description: "Apartamento nascente com três quartos, varanda gourmet e vista para o mar.",
  price: 780000,
  images: [1, 2, 3, 4, 5].map(photo),
  area: 98,
  total_area: null,
  bedrooms: 3,
  bathrooms: 2,
  condo_fee: 650,
  iptu_yearly: 2400,
  cep: "59090-210",
  video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
};

const keys = (input: Partial<PortalIssuesInput>) => portalIssues({ ...complete, ...input }).map((issue) => `${issue.key}:${issue.severity}`);

describe("portalIssues", () => {
  it("says nothing about a complete listing", () => {
    expect(portalIssues(complete)).toEqual([]);
    expect(portalIssuesSummary([])).toBeNull();
  });

  it("photos: none is refused, fewer than five scores lower, five is fine (other sites' URLs do not count)", () => {
    expect(keys({ images: [] })).toEqual(["photos:rejeita"]);
    expect(keys({ images: ["https://outro.site/foto.jpg"] })).toEqual(["photos:rejeita"]);
    expect(portalIssues({ ...complete, images: [photo(1)] })[0].message).toBe("1 foto: os portais pedem pelo menos 5");
    expect(portalIssues({ ...complete, images: [1, 2, 3, 4].map(photo) })[0]).toEqual({ key: "photos", severity: "reduz nota", message: "4 fotos: os portais pedem pelo menos 5" });
  });

  it("refuses a short title or description (characters, not UTF-16 units), no price and no area", () => {
    expect(keys({ title: "Casa boa" })).toEqual(["title:rejeita"]);
    expect(keys({ title: undefined })).toEqual([]); // not known (the CRM list has it always)
    expect(keys({ description: `${"🏖".repeat(49)} ` })).toEqual(["description:rejeita"]);
    expect(keys({ description: "🏖".repeat(50) })).toEqual([]);
    expect(portalIssues({ ...complete, price: 0 })[0].message).toBe("Sem preço de venda: os portais não aceitam 'Sob consulta'");
    expect(portalIssues({ ...complete, price: null, purpose: "aluguel" })[0].message).toBe("Sem valor de aluguel: os portais não aceitam 'Sob consulta'");
    expect(keys({ area: null })).toEqual(["area:rejeita"]);
    expect(keys({ area: null, total_area: 130 })).toEqual([]);
  });

  it("scores lower without CEP, a flat's condomínio, IPTU, a home's rooms", () => {
    expect(keys({ cep: "" })).toEqual(["cep:reduz nota"]);
    expect(keys({ condo_fee: null })).toEqual(["condo_fee:reduz nota"]);
    expect(portalIssues({ ...complete, condo_fee: null })[0].message).toBe("Apartamento sem valor de condomínio");
    expect(keys({ type: "casa", condo_fee: null })).toEqual([]); // a house need not have one
    expect(keys({ iptu_yearly: null })).toEqual(["iptu:reduz nota"]);
    expect(keys({ bedrooms: null, bathrooms: 0 })).toEqual(["bedrooms:reduz nota", "bathrooms:reduz nota"]);
    expect(keys({ type: "terreno", bedrooms: null, bathrooms: null, condo_fee: null })).toEqual([]);
    expect(keys({ type: "ponto_comercial", bedrooms: null, bathrooms: null, condo_fee: null })).toEqual(["bathrooms:reduz nota"]);
  });

  it("a video the portals do not play (Vimeo, or an unreadable link) scores lower; no video is fine", () => {
    expect(keys({ video_url: "https://vimeo.com/123456789" })).toEqual(["video:reduz nota"]);
    expect(keys({ video_url: "https://example.com/video" })).toEqual(["video:reduz nota"]);
    expect(keys({ video_url: "youtu.be/dQw4w9WgXcQ" })).toEqual([]);
    expect(keys({ video_url: null })).toEqual([]);
  });

  it("sums issues up for the CRM list's badge", () => {
    const issues = portalIssues({ ...complete, images: [], cep: null, iptu_yearly: null, price: 0 });
    expect(portalIssuesSummary(issues)).toEqual({ text: "2 recusas, 2 alertas", rejected: true });
    expect(portalIssuesSummary(portalIssues({ ...complete, cep: null }))).toEqual({ text: "1 alerta", rejected: false });
    expect(portalIssuesSummary(portalIssues({ ...complete, images: [] }))).toEqual({ text: "1 recusa", rejected: true });
  });
});
