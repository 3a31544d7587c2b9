import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeImage } from "~/features/media/pipeline.server";
import { mediaIdFromUrl } from "~/features/media/urls";
import type { CrmProperty } from "~/features/properties/crm.server";
import { action as propertiesAction, loader as propertiesLoader } from "~/routes/crm-properties";
import * as feedRoute from "~/routes/portal-feed";
import { createApp } from "../../server/app";
import { context } from "../helpers/authorization";
import { createSignedInUser, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { resourceRoutesBuild } from "../helpers/server-build";
import { child, childNames, parseXml, type XmlElement } from "../helpers/xml";

/**
 * The VRSync feed with issue 22's fields (decision 022): a listing saved through the CRM with every
 * field, read back element by element by a conforming parser (saxes); a listing whose address is
 * hidden, whose street, number, complement and position appear nowhere in the document; and
 * listings saved before issue 22, whose XML is byte for byte what the feed wrote before (a fixture
 * captured from the previous feed code), but for the street of a hidden address, no longer sent.
 */

const PUBLIC_URL = "http://localhost:3000";
const TOKEN = "feed-de-teste-listing-0123456789";
const FEED = `/feeds/vrsync/${TOKEN}.xml`;
const FIXTURE = path.join(import.meta.dirname, "fixtures", "vrsync-old-listings.xml");
const DESCRIPTION = "Apartamento nascente com três quartos, varanda gourmet e vista para o mar de Ponta Negra.";

const HIDDEN = {
  street: "Rua Secreta das Dunas",
  number: "4321",
  complement: "Bloco Z apto 1702",
  latitude: "-5,8765",
  longitude: "-35,1776",
};

/** The raw `<Listing>…</Listing>` of one ListingID, as written (indentation included). */
function rawListing(xml: string, codigo: string): string {
  const listings = xml.split(/(?=^ {4}<Listing>$)/m).filter((part) => part.startsWith("    <Listing>"));
  const found = listings.find((part) => part.includes(`<ListingID>${codigo}</ListingID>`));
  if (!found) throw new Error(`${codigo} not in the feed`);
  return found.slice(0, found.indexOf("    </Listing>\n") + "    </Listing>\n".length);
}

function listingsOf(root: XmlElement): Map<string, XmlElement> {
  return new Map(child(root, "Listings").children.map((listing) => [child(listing, "ListingID").text, listing]));
}

const texts = (element: XmlElement, name: string) => element.children.filter((item) => item.name === name).map((item) => item.text);

describe.each(DATABASE_KINDS)("VRSync feed with every listing field on %s", (kind) => {
  let test: TestRuntime;
  let app: ReturnType<typeof createApp>;
  let admin: TestUser;
  const photos: string[] = [];

  async function crmSave(values: Record<string, unknown>) {
    const request = new Request(`${PUBLIC_URL}/crm/imoveis`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: PUBLIC_URL, Cookie: admin.cookie },
      body: JSON.stringify({ intent: "create", id: null, values }),
    });
    const result = await propertiesAction({ request, params: {}, context } as never);
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
  }

  async function crmRow(codigo: string): Promise<CrmProperty> {
    const page = (await propertiesLoader({ request: makeRequest(`/crm/imoveis?busca=${codigo}`, { cookie: admin.cookie }), params: {}, context } as never)) as {
      properties: CrmProperty[];
    };
    return page.properties.find((property) => property.codigo === codigo)!;
  }

  const feedText = async () => {
    const response = await app.request(FEED);
    expect(response.status).toBe(200);
    return response.text();
  };

  const base = {
    description: DESCRIPTION,
    status: "disponivel",
    neighborhood: "Ponta Negra",
    city: "Natal",
    state: "RN",
    publish_to_portals: true,
  };

  beforeAll(async () => {
    test = await startTestRuntime(kind, { PORTAL_FEED_TOKEN: TOKEN });
    const clientDir = path.join(test.dataDir, "client");
    fs.mkdirSync(clientDir, { recursive: true });
    const build = resourceRoutesBuild({ "routes/portal-feed": { path: "feeds/vrsync/:file", module: feedRoute } }, clientDir);
    app = createApp({ build, clientDir, publicUrl: PUBLIC_URL, trustProxy: false, pageCacheMaxBytes: 0 });
    admin = await createSignedInUser(test.runtime, "admin");
    // Five for the first listing, two for the second, one for the third: a photo belongs to one listing.
    for (const color of ["#aa5533", "#3355aa", "#33aa55", "#999933", "#993399", "#339999", "#555555", "#cc8844"]) {
      const image = await sharp({ create: { width: 160, height: 120, channels: 3, background: color } }).jpeg().toBuffer();
      photos.push((await storeImage(test.runtime, image)).url);
    }

    // Every field, through the CRM's own action (so each value is what validation keeps).
    await crmSave({
      ...base,
      codigo: "FULL-1",
      title: "Apartamento completo em Ponta Negra",
      type: "apartamento",
      purpose: "venda",
      price: "780.000,00",
      area: "98,6",
      total_area: "130",
      bedrooms: "3",
      bathrooms: "3",
      suites: "2",
      parking_spaces: "2",
      condo_fee: "650,40",
      iptu_yearly: "2.400,00",
      floor: "7",
      total_floors: "15",
      year_built: "2015",
      furnished: "mobiliado",
      pets_allowed: true,
      accepts_financing: true,
      accepts_fgts: true,
      accepts_exchange: false,
      features: ["piscina", "academia", "ar_condicionado", "varanda_gourmet", "gas_encanado", "portaria_24h"],
      images: photos.slice(0, 5),
      street_address: "Rua Praia de Ponta Negra",
      address_number: "120",
      address_complement: "Apto 701",
      cep: "59090-210",
      display_address: true,
      latitude: "-5,8811",
      longitude: "-35,1640",
      video_url: "https://youtu.be/dQw4w9WgXcQ",
      tour_url: "https://my.matterport.com/show/?m=abcDEF12345",
    });
    // A rent with the rental-only fields, and a Vimeo video (which the portals do not take).
    await crmSave({
      ...base,
      codigo: "FULL-2",
      title: "Casa para alugar em Capim Macio",
      type: "casa",
      purpose: "aluguel",
      price: "4.500,00",
      area: "180",
      total_area: "300",
      bedrooms: "4",
      bathrooms: "3",
      suites: "1",
      furnished: "semimobiliado",
      pets_allowed: false,
      rental_guarantees: ["fiador", "seguro_fianca", "caucao", "titulo_capitalizacao"],
      images: photos.slice(5, 7),
      cep: "59082-000",
      display_address: true,
      video_url: "https://vimeo.com/123456789",
    });
    // Every address field filled, but 'Exibir endereço' off.
    await crmSave({
      ...base,
      codigo: "HIDDEN-1",
      title: "Apartamento com endereço reservado",
      type: "apartamento",
      purpose: "venda",
      price: "500.000,00",
      area: "80",
      images: photos.slice(7, 8),
      street_address: HIDDEN.street,
      address_number: HIDDEN.number,
      address_complement: HIDDEN.complement,
      cep: "59090-000",
      display_address: false,
      latitude: HIDDEN.latitude,
      longitude: HIDDEN.longitude,
    });

    // Listings as saved before issue 22 (every new field empty), with fixed ids and photo URLs so
    // the fixture captured from the previous feed code applies.
    const old = (values: Parameters<typeof insertProperty>[1]) => insertProperty(test.runtime, { description: DESCRIPTION, ...values });
    await old({
      id: "00000000-0000-4000-8000-000000000001",
      codigo: "OLD-AP",
      title: "Apartamento antigo com endereço",
      type: "apartamento",
      purpose: "venda",
      price: 450000.6,
      area: 75.4,
      bedrooms: 2,
      bathrooms: 1,
      parking_spaces: 1,
      images: ["/media/old-photo-0001/800.webp", "/media/old-photo-0002/800.webp"],
      street_address: "Rua Antiga, 10",
      cep: "59000-000",
      display_address: true,
    });
    await old({
      id: "00000000-0000-4000-8000-000000000002",
      codigo: "OLD-CASA",
      title: "Casa antiga com endereço oculto",
      type: "casa",
      purpose: "aluguel",
      price: 1800,
      area: 120,
      bedrooms: 3,
      bathrooms: null,
      parking_spaces: null,
      neighborhood: "Tirol",
      images: ["/media/old-photo-0003/800.webp"],
      street_address: "Avenida Oculta, 55",
      cep: "59020-000",
      display_address: false,
    });
    await old({
      id: "00000000-0000-4000-8000-000000000003",
      codigo: "OLD-LOTE",
      title: "Terreno antigo em Parnamirim",
      type: "terreno",
      purpose: "venda",
      price: 150000,
      area: 360,
      bedrooms: null,
      bathrooms: null,
      parking_spaces: null,
      city: "Parnamirim",
      images: ["/media/old-photo-0004/800.webp"],
    });
  });
  afterAll(async () => {
    await test.stop();
  });

  it("sends every field of a full sale listing, element by element, in the documented order", async () => {
    const xml = await feedText();
    const listing = listingsOf(parseXml(xml)).get("FULL-1")!;
    const row = await crmRow("FULL-1");
    expect(childNames(listing)).toEqual(["ListingID", "Title", "TransactionType", "PublicationType", "DetailViewUrl", "VirtualTourLink", "Media", "Details", "Location", "ContactInfo"]);
    expect(child(listing, "VirtualTourLink").text).toBe("https://my.matterport.com/show/?m=abcDEF12345");

    const media = child(listing, "Media").children;
    expect(media.map((item) => item.attributes.medium)).toEqual(["image", "image", "image", "image", "image", "video"]);
    expect(media[0].attributes.primary).toBe("true");
    expect(media.slice(0, 5).map((item) => item.text)).toEqual(photos.slice(0, 5).map((url) => `${PUBLIC_URL}/media/${mediaIdFromUrl(url)}/1600.jpg`));
    expect(media[5].text).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");

    const details = child(listing, "Details");
    expect(childNames(details)).toEqual([
      "UsageType",
      "PropertyType",
      "Description",
      "ListPrice",
      "PropertyAdministrationFee",
      "Iptu",
      "LotArea",
      "LivingArea",
      "Bedrooms",
      "Bathrooms",
      "Suites",
      "Garage",
      "UnitFloor",
      "Floors",
      "YearBuilt",
      "Features",
    ]);
    expect(child(details, "ListPrice")).toMatchObject({ text: "780000", attributes: { currency: "BRL" } });
    expect(child(details, "PropertyAdministrationFee")).toMatchObject({ text: "650", attributes: { currency: "BRL" } });
    expect(child(details, "Iptu")).toMatchObject({ text: "2400", attributes: { currency: "BRL", period: "Yearly" } });
    expect(child(details, "LivingArea")).toMatchObject({ text: "99", attributes: { unit: "square metres" } });
    expect(child(details, "LotArea")).toMatchObject({ text: "130", attributes: { unit: "square metres" } });
    expect([child(details, "Bedrooms").text, child(details, "Bathrooms").text, child(details, "Suites").text]).toEqual(["3", "3", "2"]);
    expect(child(details, "Garage")).toMatchObject({ text: "2", attributes: { type: "Parking Space" } });
    expect([child(details, "UnitFloor").text, child(details, "Floors").text, child(details, "YearBuilt").text]).toEqual(["7", "15", "2015"]);
    // The catalogue's names in its order (gás encanado has none), then mobiliado and pets.
    expect(texts(child(details, "Features"), "Feature")).toEqual(["Gourmet Balcony", "Cooling", "Pool", "Gym", "Concierge 24h", "Furnished", "Pets Allowed"]);
    // Financing, FGTS and permuta have no VRSync element; warranties are for rents only.
    expect(xml.slice(xml.indexOf("<ListingID>FULL-1<"), xml.indexOf("</Listing>", xml.indexOf("<ListingID>FULL-1<")))).not.toContain("Warrant");

    const location = child(listing, "Location");
    expect(location.attributes.displayAddress).toBe("All");
    expect(childNames(location)).toEqual(["Country", "State", "City", "Neighborhood", "Address", "StreetNumber", "Complement", "PostalCode", "Latitude", "Longitude"]);
    expect(child(location, "Address").text).toBe("Rua Praia de Ponta Negra");
    expect(child(location, "StreetNumber").text).toBe("120");
    expect(child(location, "Complement").text).toBe("Apto 701");
    expect(child(location, "PostalCode").text).toBe("59090-210");
    expect(Number(child(location, "Latitude").text)).toBe(row.latitude);
    expect(Number(child(location, "Longitude").text)).toBe(row.longitude);
    expect(row.latitude).toBeCloseTo(-5.8811, 6);
  });

  it("sends a rent's warranties, a house's plot as LotArea, and leaves out a video the portals would not play", async () => {
    const listing = listingsOf(parseXml(await feedText())).get("FULL-2")!;
    expect(childNames(listing)).not.toContain("VirtualTourLink");
    const details = child(listing, "Details");
    expect(child(details, "RentalPrice")).toMatchObject({ text: "4500", attributes: { currency: "BRL", period: "Monthly" } });
    expect(texts(child(details, "Warranties"), "Warranty")).toEqual(["GUARANTOR", "INSURANCE_GUARANTEE", "SECURITY_DEPOSIT", "CAPITALIZATION_BONDS"]);
    expect(child(details, "LotArea").text).toBe("300");
    expect(child(details, "LivingArea").text).toBe("180");
    // Semimobiliado and "no pets" have no feature name; floors are for flats only (dropped on save).
    expect(childNames(details)).not.toContain("Features");
    expect(childNames(details)).not.toContain("UnitFloor");
    // Vimeo: photos only.
    expect(child(listing, "Media").children.map((item) => item.attributes.medium)).toEqual(["image", "image"]);
  });

  it("a hidden address: no street, number, complement or position anywhere in the document", async () => {
    const xml = await feedText();
    const listing = listingsOf(parseXml(xml)).get("HIDDEN-1")!;
    const location = child(listing, "Location");
    expect(location.attributes.displayAddress).toBe("Neighborhood");
    expect(childNames(location)).toEqual(["Country", "State", "City", "Neighborhood", "PostalCode"]);
    expect(child(location, "PostalCode").text).toBe("59090-000");
    // The CRM holds them: the feed is what leaves them out.
    const row = await crmRow("HIDDEN-1");
    expect(row).toMatchObject({ street_address: HIDDEN.street, address_number: HIDDEN.number, address_complement: HIDDEN.complement, display_address: false });
    for (const secret of [HIDDEN.street, HIDDEN.number, HIDDEN.complement, "5.8765", "35.1776", "5,8765", "35,1776"]) {
      expect(xml, secret).not.toContain(secret);
    }
  });

  it("old listings: the same XML as before issue 22, except a hidden address's street, now left out", async () => {
    const xml = await feedText();
    const fixture = fs.readFileSync(FIXTURE, "utf8");
    const expected = (codigo: string) => rawListing(fixture, codigo);
    expect(rawListing(xml, "OLD-AP")).toBe(expected("OLD-AP"));
    expect(rawListing(xml, "OLD-LOTE")).toBe(expected("OLD-LOTE"));
    const hiddenBefore = expected("OLD-CASA");
    expect(hiddenBefore).toContain("<Address>Avenida Oculta, 55</Address>");
    expect(rawListing(xml, "OLD-CASA")).toBe(hiddenBefore.replace(/^ *<Address>Avenida Oculta, 55<\/Address>\n/m, ""));
  });
});
