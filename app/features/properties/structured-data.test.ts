import { describe, expect, it } from "vitest";
import { listingJsonLd, serializeJsonLd } from "./structured-data";
import { EMPTY_LISTING_DETAILS, type PublicPropertyDetail } from "./types";

const property: PublicPropertyDetail = {
  id: "0b7f3c2e-1a2b-4c3d-9e8f-001122334455",
  codigo: "AP-1",
  title: 'Apto </script><script>alert("x")</script>',
  description: "Descrição <b>com</b> tags",
  type: "apartamento",
  purpose: "venda",
  status: "disponivel",
  featured: false,
  price: 780000,
  area: 98,
  bedrooms: 3,
  bathrooms: 2,
  parking_spaces: 1,
  neighborhood: "Ponta Negra",
  city: "Natal",
  state: "RN",
  images: ["/media/0b7f3c2e-1a2b-4c3d-9e8f-001122334455/800.webp"],
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  street_address: null,
  cep: null,
  ...EMPTY_LISTING_DETAILS,
};

describe("listing JSON-LD", () => {
  it("describes a RealEstateListing with an Offer in BRL", () => {
    const json = listingJsonLd(property, "https://corretor.com.br");
    expect(json["@type"]).toBe("RealEstateListing");
    expect(json.offers).toMatchObject({ "@type": "Offer", price: 780000, priceCurrency: "BRL" });
    expect(json.url).toBe("https://corretor.com.br/imoveis/0b7f3c2e-1a2b-4c3d-9e8f-001122334455");
    expect(json.image[0]).toMatch(/^https:\/\/corretor\.com\.br\/media\/.+\/1600\.webp$/);
  });

  it("gives the street and CEP only when the site shows them (issue 13)", () => {
    expect(listingJsonLd(property, "https://corretor.com.br").about.address).toEqual({
      "@type": "PostalAddress",
      addressLocality: "Natal",
      addressRegion: "RN",
      streetAddress: "Ponta Negra",
      addressCountry: "BR",
    });
    const shown = listingJsonLd({ ...property, street_address: "Rua Praia de Ponta Negra, 120", cep: "59090-210" }, "https://corretor.com.br");
    expect(shown.about.address).toMatchObject({ streetAddress: "Rua Praia de Ponta Negra, 120", postalCode: "59090-210" });
  });

  it("cannot be closed early by a listing's text", () => {
    const serialized = serializeJsonLd(listingJsonLd(property, "https://corretor.com.br"));
    expect(serialized).not.toContain("<");
    expect(JSON.parse(serialized).name).toBe(property.title);
  });
});
