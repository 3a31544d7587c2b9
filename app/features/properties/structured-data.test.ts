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

  it("carries issue 22's fields where the listing has them: floor, year, pets, amenities, geo", () => {
    const json = listingJsonLd(
      {
        ...property,
        street_address: "Rua Praia de Ponta Negra",
        address_number: "120",
        address_complement: "Apto 701",
        cep: "59090-210",
        floor: 7,
        year_built: 2015,
        pets_allowed: false,
        features: ["piscina", "ar_condicionado", "nao_existe"],
        latitude: -5.8811,
        longitude: -35.164,
      },
      "https://corretor.com.br",
    );
    expect(json.about).toMatchObject({
      "@type": "Apartment",
      numberOfBedrooms: 3,
      numberOfBathroomsTotal: 2,
      floorSize: { "@type": "QuantitativeValue", value: 98, unitCode: "MTK" },
      floorLevel: "7º andar",
      yearBuilt: 2015,
      petsAllowed: false,
      geo: { "@type": "GeoCoordinates", latitude: -5.8811, longitude: -35.164 },
      address: { streetAddress: "Rua Praia de Ponta Negra, 120, Apto 701", postalCode: "59090-210" },
    });
    // The catalogue's order and labels; an unknown key is dropped.
    expect((json.about as { amenityFeature: unknown[] }).amenityFeature).toEqual([
      { "@type": "LocationFeatureSpecification", name: "Ar-condicionado", value: true },
      { "@type": "LocationFeatureSpecification", name: "Piscina", value: true },
    ]);
    expect(listingJsonLd({ ...property, floor: 0 }, "https://corretor.com.br").about).toMatchObject({ floorLevel: "Térreo" });
  });

  it("a hidden address (the view's nulls): no street, number or position, the neighbourhood instead", () => {
    const json = listingJsonLd({ ...property, address_number: null, address_complement: null, latitude: null, longitude: null }, "https://corretor.com.br");
    expect(json.about).not.toHaveProperty("geo");
    expect(json.about.address.streetAddress).toBe("Ponta Negra");
  });

  it("an old listing (no new fields) gives the same JSON-LD as before", () => {
    const json = listingJsonLd({ ...property, features: [], pets_allowed: null, floor: null, year_built: null, latitude: null, longitude: null }, "https://corretor.com.br");
    expect(json).toEqual(listingJsonLd(property, "https://corretor.com.br"));
    expect(Object.keys(json.about).sort()).toEqual(["@type", "address", "floorSize", "numberOfBathroomsTotal", "numberOfBedrooms"]);
  });
});
