import { describe, expect, it } from "vitest";
import { listingCompleteness } from "../../completeness";
import { propertyFormSchema } from "../../crm-schema";
import type { CrmProperty } from "../../crm.server";
import { completenessFromForm, defaultsFor, FIELD_ORDER, maskOptionalMoney, sectionOf } from "./form-model";

const listing: CrmProperty = {
  id: "0b6f3f3e-2a59-4a57-9c59-2f1f1a0b6f3f",
  codigo: "AP-PN-101",
  title: "Apartamento com vista para o Morro do Careca",
  description: "Apartamento nascente a duas quadras da praia de Ponta Negra.",
  type: "apartamento",
  purpose: "venda",
  status: "disponivel",
  featured: true,
  price: 780000,
  area: 98.5,
  bedrooms: 3,
  bathrooms: 2,
  parking_spaces: 2,
  neighborhood: "Ponta Negra",
  city: "Natal",
  state: "RN",
  images: [],
  created_at: "2026-11-20T12:00:00.000Z",
  broker_partner: null,
  publish_to_portals: true,
  street_address: "Rua Praia de Ponta Negra",
  cep: "59090-000",
  display_address: false,
  condo_fee: 1150.5,
  iptu_yearly: 2400,
  suites: 1,
  total_area: 125,
  floor: 0,
  total_floors: 15,
  year_built: 2014,
  furnished: "semimobiliado",
  pets_allowed: false,
  accepts_financing: true,
  accepts_fgts: null,
  accepts_exchange: false,
  rental_guarantees: [],
  features: ["varanda", "piscina"],
  address_number: "1200",
  address_complement: "Apto 802",
  latitude: -5.8826,
  longitude: -35.1664,
  video_url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  tour_url: null,
};

describe("the property dialog's model", () => {
  it("opens an edit with every value, and saving it unchanged changes nothing", () => {
    const saved = propertyFormSchema.parse(defaultsFor(listing));
    const { id: _id, created_at: _created, ...expected } = listing;
    expect(saved).toMatchObject({ ...expected, broker_partner: undefined });
  });

  it("opens an old listing (none of issue 22's fields) and saves it with them still empty", () => {
    const old = { ...listing, condo_fee: null, iptu_yearly: null, suites: null, total_area: null, floor: null, total_floors: null, year_built: null, furnished: null, pets_allowed: null, accepts_financing: null, accepts_exchange: null, features: [], address_number: null, address_complement: null, latitude: null, longitude: null, video_url: null };
    expect(propertyFormSchema.parse(defaultsFor(old))).toMatchObject({ condo_fee: null, floor: null, furnished: null, pets_allowed: null, features: [], latitude: null, video_url: null });
  });

  it("keeps money fields empty until a digit is typed", () => {
    expect(maskOptionalMoney("")).toBe("");
    expect(maskOptionalMoney("R$ ")).toBe("");
    expect(maskOptionalMoney("115000")).toBe("1.150,00");
  });

  it("reads the form as typed for the meter, the same as the saved listing", () => {
    expect(listingCompleteness(completenessFromForm(defaultsFor(listing))).percent).toBe(listingCompleteness(listing).percent);
    expect(completenessFromForm({ price: "abc", area: "", features: ["piscina"] })).toMatchObject({ price: null, area: null, features: ["piscina"] });
  });

  it("puts every field of the form in one section", () => {
    expect(new Set(FIELD_ORDER).size).toBe(FIELD_ORDER.length);
    for (const field of Object.keys(defaultsFor())) expect(sectionOf(field), field).not.toBeNull();
  });
});
