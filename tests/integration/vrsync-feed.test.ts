import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { SaxesParser } from "saxes";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { audit_log, media, properties } from "~/db/schema";
import { deleteUnusedMedia } from "~/features/media/cleanup.server";
import { storeImage } from "~/features/media/pipeline.server";
import { mediaIdFromUrl } from "~/features/media/urls";
import { PORTAL_REASONS, portalExclusionReasons, portalTitle } from "~/features/portals/feed-rules";
import { loadPortalSettings } from "~/features/portals/portal-settings.server";
import { FEED_BATCH_SIZE, VRSYNC_NAMESPACE } from "~/features/portals/vrsync-feed.server";
import { ADDRESS_MESSAGES } from "~/features/properties/crm-schema";
import type { CrmProperty } from "~/features/properties/crm.server";
import { getPublicProperty } from "~/features/properties/public-queries.server";
import { getBrokerProfile } from "~/features/site/broker-profile.server";
import { action as propertiesAction, loader as propertiesLoader } from "~/routes/crm-properties";
import * as mediaRoute from "~/routes/media";
import * as feedRoute from "~/routes/portal-feed";
import { createApp, isCacheable } from "../../server/app";
import { context } from "../helpers/authorization";
import { createSignedInUser, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { resourceRoutesBuild } from "../helpers/server-build";
import { child, childNames, parseXml, type XmlElement } from "../helpers/xml";

/**
 * The portals' VRSync feed (issue 13) through the real HTTP server (server/app.ts: compression,
 * headers, the page cache switched on) and the real routes, on both databases: the token (a wrong
 * one is a plain 404), the document read back by a conforming parser (element names and order,
 * required fields, allowed values, integer prices, the rent's period, the cover first and primary,
 * hostile text), JPEG photo URLs that answer 200 (made on demand for a photo older than the
 * large JPEG), conditional GETs (304), listings switched off, sold, left without a photo or deleted
 * leaving the feed on the next request, 10,000 listings streamed in bounded chunks, and the CRM
 * form's new fields.
 */

const PUBLIC_URL = "http://localhost:3000";
const TOKEN = "feed-de-teste-0123456789_abc";
const FEED = `/feeds/vrsync/${TOKEN}.xml`;

const LISTING_ORDER = ["ListingID", "Title", "TransactionType", "PublicationType", "DetailViewUrl", "Media", "Details", "Location", "ContactInfo"];
const DETAILS_ORDER = ["UsageType", "PropertyType", "Description", "ListPrice", "RentalPrice", "LotArea", "LivingArea", "Bedrooms", "Bathrooms", "Garage"];
const LOCATION_ORDER = ["Country", "State", "City", "Neighborhood", "Address", "PostalCode"];
const PROPERTY_TYPES = new Set(["Residential / Apartment", "Residential / Home", "Residential / Land Lot", "Commercial / Business"]);

const HOSTILE_TITLE = `Cobertura ]]> <script>alert("x")</script> & vista 🏖️ ${"mar ".repeat(30)}`;
const DESCRIPTION = "Apartamento nascente com três quartos, varanda gourmet e vista para o mar de Ponta Negra.";

function feedApp(clientDir: string) {
  const build = resourceRoutesBuild({
    "routes/portal-feed": { path: "feeds/vrsync/:file", module: feedRoute },
    "routes/media": { path: "media/:id/:file", module: mediaRoute },
  }, clientDir);
  // The public page cache on, as in production: the feed must never go into it.
  return createApp({ build, clientDir, publicUrl: PUBLIC_URL, trustProxy: false, pageCacheMaxBytes: 8 * 1024 * 1024 });
}

const photo = (color: string) => sharp({ create: { width: 480, height: 360, channels: 3, background: color } }).jpeg().toBuffer();

/** Listing elements by their ListingID. */
function listingsOf(root: XmlElement): Map<string, XmlElement> {
  return new Map(child(root, "Listings").children.map((listing) => [child(listing, "ListingID").text, listing]));
}

/** Each name appears in the allowed order (a subsequence of it), none twice, none unknown. */
function expectInOrder(names: string[], order: string[]) {
  const positions = names.map((name) => order.indexOf(name));
  expect(positions.every((position) => position >= 0), `unknown element in ${names.join(", ")}`).toBe(true);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  expect(new Set(names).size).toBe(names.length);
}

describe.each(DATABASE_KINDS)("VRSync feed on %s", (kind) => {
  let test: TestRuntime;
  let app: ReturnType<typeof feedApp>;
  let admin: TestUser;
  const db = () => test.runtime.db;
  const ids: Record<string, string> = {};
  const photos: Record<string, string> = {};

  const get = (pathname: string, headers: Record<string, string> = {}) => app.request(pathname, { headers });
  const feed = async (headers: Record<string, string> = {}) => {
    const response = await get(FEED, headers);
    return { response, root: response.status === 200 ? parseXml(await response.text()) : null };
  };

  async function crmSave(id: string | null, values: Record<string, unknown>) {
    const request = new Request(`${PUBLIC_URL}/crm/imoveis`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: PUBLIC_URL, Cookie: admin.cookie },
      body: JSON.stringify({ intent: id ? "update" : "create", id, values }),
    });
    return propertiesAction({ request, params: {}, context } as never);
  }

  /** The CRM's copy of a listing (what its form and table get). */
  async function crmRow(codigo: string): Promise<CrmProperty> {
    const page = (await propertiesLoader({
      request: makeRequest(`/crm/imoveis?busca=${codigo}`, { cookie: admin.cookie }),
      params: {},
      context,
    } as never)) as { properties: CrmProperty[] };
    const row = page.properties.find((property) => property.codigo === codigo);
    if (!row) throw new Error(`${codigo} not in the CRM list`);
    return row;
  }

  beforeAll(async () => {
    test = await startTestRuntime(kind, { PORTAL_FEED_TOKEN: TOKEN });
    const clientDir = path.join(test.dataDir, "client");
    fs.mkdirSync(clientDir, { recursive: true });
    app = feedApp(clientDir);
    admin = await createSignedInUser(test.runtime, "admin");

    for (const [name, color] of [["front", "#aa5533"], ["room", "#3355aa"], ["old", "#33aa55"], ["lot", "#999933"], ["shop", "#993399"]] as const) {
      photos[name] = (await storeImage(test.runtime, await photo(color))).url;
    }
    // A photo from before the large JPEG existed: its 1600.jpg must be made when first asked for.
    await test.runtime.storage.delete([`${mediaIdFromUrl(photos.old)}/1600.jpg`]);

    const listing = async (key: string, values: Parameters<typeof insertProperty>[1]) => {
      ids[key] = (await insertProperty(test.runtime, { codigo: key, description: DESCRIPTION, ...values })).id;
    };
    await listing("AP-1", {
      title: HOSTILE_TITLE,
      type: "apartamento",
      purpose: "venda",
      price: 780000.49,
      area: 98.6,
      bedrooms: 3,
      bathrooms: 2,
      parking_spaces: 1,
      images: [photos.front, photos.room],
      street_address: "Rua Praia de Ponta Negra, 120 & Cia <b>",
      cep: "59090-210",
      display_address: true,
    });
    await listing("CASA-2", {
      title: "Casa para alugar no Tirol",
      type: "casa",
      purpose: "aluguel",
      price: 2300.5,
      area: 150,
      bedrooms: 3,
      bathrooms: null,
      parking_spaces: null,
      neighborhood: "Tirol",
      images: [photos.old],
      street_address: "Avenida Hermes da Fonseca, 900",
      display_address: false,
    });
    await listing("LOTE-3", { title: "Terreno plano em Parnamirim", type: "terreno", purpose: "venda", price: 150000, area: 360, bedrooms: null, bathrooms: null, parking_spaces: null, city: "Parnamirim", images: [photos.lot] });
    await listing("LOJA-4", { title: "Ponto comercial na Salgado Filho", type: "ponto_comercial", purpose: "aluguel", price: 6500, area: 0, images: [photos.shop] });
    // Left out, each for one reason.
    await listing("SEM-FOTO", { title: "Casa sem nenhuma foto ainda", images: [] });
    await listing("VENDIDO", { title: "Casa vendida no mês passado", status: "vendido", images: [photos.front] });
    await listing("DESLIGADO", { title: "Casa fora dos portais a pedido", publish_to_portals: false, images: [photos.front] });
    await listing("CURTA", { title: "Casa com descrição curta", description: "Casa boa, bem localizada.", images: [photos.front] });
    await listing("SEM-PRECO", { title: "Casa com preço a combinar", price: 0, images: [photos.front] });
    await listing("TITULO", { title: "Casa boa", images: [photos.front] });
    // The page cache starts listening for change events; let it.
    await new Promise((resolve) => setTimeout(resolve, 100));
  });
  afterAll(async () => {
    await test.stop();
  });

  it("answers a wrong token, or a malformed file name, with a plain 404 that tells nothing", async () => {
    for (const file of [`${"x".repeat(28)}.xml`, TOKEN, `${TOKEN}.json`, `${TOKEN.slice(0, -1)}.xml`, `${TOKEN}x.xml`, "a.xml", `${TOKEN}.xml.xml`, `${TOKEN.toUpperCase()}.xml`]) {
      const response = await get(`/feeds/vrsync/${file}`);
      expect(response.status, file).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(response.headers.get("etag")).toBeNull();
      const body = await response.text();
      expect(body).toBe("Não encontrado.");
      expect(body).not.toContain(TOKEN);
    }
  });

  it("the settings page shows this very address", async () => {
    expect((await loadPortalSettings(db(), PUBLIC_URL)).feedUrl).toBe(`${PUBLIC_URL}${FEED}`);
  });

  it("is an XML document in the VRSync namespace with the documented elements, in order", async () => {
    const { response, root } = await feed();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(response.headers.get("etag")).toMatch(/^W\/"vrsync-2-[A-Za-z0-9_-]{32}"$/);
    expect(new Date(response.headers.get("last-modified")!).getTime()).toBeGreaterThan(Date.now() - 600_000);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("x-robots-tag")).toBe("noindex");
    expect(response.headers.get("set-cookie")).toBeNull();
    // Never answered from, or stored in, the public page cache.
    expect(response.headers.get("x-cache")).toBeNull();
    expect(isCacheable("GET", FEED, undefined)).toBe(false);

    expect(root!.name).toBe("ListingDataFeed");
    expect(root!.uri).toBe(VRSYNC_NAMESPACE);
    expect(root!.attributes["xmlns:xsi"]).toBe("http://www.w3.org/2001/XMLSchema-instance");
    expect(root!.attributes["xsi:schemaLocation"]).toBe(`${VRSYNC_NAMESPACE} http://xml.vivareal.com/vrsync.xsd`);
    expect(childNames(root!)).toEqual(["Header", "Listings"]);

    const header = child(root!, "Header");
    const profile = getBrokerProfile();
    expect(childNames(header)).toEqual(["Provider", "Email", "ContactName", "PublishDate", "Telephone"]);
    expect([child(header, "Provider").text, child(header, "Email").text, child(header, "ContactName").text, child(header, "Telephone").text]).toEqual([
      profile.siteName,
      profile.email,
      profile.name,
      profile.phone,
    ]);
    expect(child(header, "PublishDate").text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    const listings = listingsOf(root!);
    // Only the listings the portals would take; every other one is left out.
    expect([...listings.keys()].sort()).toEqual(["AP-1", "CASA-2", "LOJA-4", "LOTE-3"]);
    for (const listing of listings.values()) {
      expect(listing.uri).toBe(VRSYNC_NAMESPACE);
      expect(childNames(listing)).toEqual(LISTING_ORDER);
      expect(["For Sale", "For Rent"]).toContain(child(listing, "TransactionType").text);
      expect(child(listing, "PublicationType").text).toBe("STANDARD");
      const details = child(listing, "Details");
      expectInOrder(childNames(details), DETAILS_ORDER);
      expect(childNames(details).slice(0, 3)).toEqual(["UsageType", "PropertyType", "Description"]);
      expect(["Residential", "Commercial"]).toContain(child(details, "UsageType").text);
      expect(PROPERTY_TYPES.has(child(details, "PropertyType").text)).toBe(true);
      expect(child(details, "PropertyType").text.startsWith(child(details, "UsageType").text)).toBe(true);
      const prices = details.children.filter((element) => element.name === "ListPrice" || element.name === "RentalPrice");
      expect(prices).toHaveLength(1);
      expect(prices[0].text).toMatch(/^[1-9]\d*$/);
      expect(prices[0].attributes.currency).toBe("BRL");
      const location = child(listing, "Location");
      expectInOrder(childNames(location), LOCATION_ORDER);
      expect(childNames(location).slice(0, 4)).toEqual(["Country", "State", "City", "Neighborhood"]);
      expect(child(location, "Country").attributes.abbreviation).toBe("BR");
      expect(child(location, "Country").text).toBe("Brasil");
      expect(child(location, "State").attributes.abbreviation).toBe("RN");
      expect(child(location, "State").text).toBe("Rio Grande do Norte");
      expect(childNames(child(listing, "ContactInfo"))).toEqual(["Name", "Email", "Website", "Telephone"]);
      expect(child(child(listing, "ContactInfo"), "Website").text).toBe(PUBLIC_URL);
    }
  });

  it("maps each listing's fields: title and description as CDATA, whole-real prices, the rent per month, areas, counts, address", async () => {
    const listings = listingsOf((await feed()).root!);

    const apartment = listings.get("AP-1")!;
    const title = child(apartment, "Title");
    expect(title.text).toBe(portalTitle(HOSTILE_TITLE));
    expect([...title.text]).toHaveLength(100);
    expect(title.cdataSections).toBeGreaterThanOrEqual(2); // the "]]>" split over two sections
    expect(child(apartment, "TransactionType").text).toBe("For Sale");
    expect(child(apartment, "DetailViewUrl").text).toBe(`${PUBLIC_URL}/imoveis/${ids["AP-1"]}`);
    const details = child(apartment, "Details");
    expect(childNames(details)).toEqual(["UsageType", "PropertyType", "Description", "ListPrice", "LivingArea", "Bedrooms", "Bathrooms", "Garage"]);
    expect(child(details, "PropertyType").text).toBe("Residential / Apartment");
    expect(child(details, "Description").text).toBe(DESCRIPTION);
    expect(child(details, "Description").cdataSections).toBe(1);
    expect(child(details, "ListPrice").text).toBe("780000");
    expect(child(details, "LivingArea")).toMatchObject({ text: "99", attributes: { unit: "square metres" } });
    expect([child(details, "Bedrooms").text, child(details, "Bathrooms").text]).toEqual(["3", "2"]);
    expect(child(details, "Garage")).toMatchObject({ text: "1", attributes: { type: "Parking Space" } });
    const location = child(apartment, "Location");
    expect(location.attributes.displayAddress).toBe("All");
    expect(child(location, "Address").text).toBe("Rua Praia de Ponta Negra, 120 & Cia <b>");
    expect(child(location, "PostalCode").text).toBe("59090-210");
    expect(child(location, "City").text).toBe("Natal");
    expect(child(location, "Neighborhood").text).toBe("Ponta Negra");

    const house = listings.get("CASA-2")!;
    expect(child(house, "TransactionType").text).toBe("For Rent");
    const rent = child(child(house, "Details"), "RentalPrice");
    expect(rent).toMatchObject({ text: "2301", attributes: { currency: "BRL", period: "Monthly" } });
    expect(childNames(child(house, "Details"))).toEqual(["UsageType", "PropertyType", "Description", "RentalPrice", "LivingArea", "Bedrooms"]);
    expect(child(child(house, "Details"), "PropertyType").text).toBe("Residential / Home");
    // 'Exibir endereço' off: the street is not sent at all (issue 22, decision 022), only the area.
    expect(child(house, "Location").attributes.displayAddress).toBe("Neighborhood");
    expect(childNames(child(house, "Location"))).toEqual(["Country", "State", "City", "Neighborhood"]);

    const lot = child(listings.get("LOTE-3")!, "Details");
    expect([child(lot, "UsageType").text, child(lot, "PropertyType").text]).toEqual(["Residential", "Residential / Land Lot"]);
    expect(child(lot, "LotArea")).toMatchObject({ text: "360", attributes: { unit: "square metres" } });
    expect(childNames(lot)).not.toContain("LivingArea");
    expect(child(child(listings.get("LOTE-3")!, "Location"), "City").text).toBe("Parnamirim");

    const shop = child(listings.get("LOJA-4")!, "Details");
    expect([child(shop, "UsageType").text, child(shop, "PropertyType").text]).toEqual(["Commercial", "Commercial / Business"]);
    expect(childNames(shop)).not.toContain("LivingArea"); // area 0 is "not given"
  });

  it("lists the photos as JPEG URLs, the cover first and primary, and each answers 200 with a JPEG", async () => {
    const listings = listingsOf((await feed()).root!);
    const items = (codigo: string) => child(listings.get(codigo)!, "Media").children;
    const apartment = items("AP-1");
    expect(apartment.map((item) => item.text)).toEqual([
      `${PUBLIC_URL}/media/${mediaIdFromUrl(photos.front)}/1600.jpg`,
      `${PUBLIC_URL}/media/${mediaIdFromUrl(photos.room)}/1600.jpg`,
    ]);
    expect(apartment.map((item) => item.attributes)).toEqual([{ medium: "image", primary: "true" }, { medium: "image" }]);

    const oldId = mediaIdFromUrl(photos.old)!;
    const [before] = await db().select({ bytes: media.bytes }).from(media).where(eq(media.id, oldId));
    expect(await test.runtime.storage.get(`${oldId}/1600.jpg`)).toBeNull();

    const urls = [...listings.keys()].flatMap((codigo) => items(codigo).map((item) => item.text));
    expect(urls).toHaveLength(5);
    // The old photo asked for three times at once, as a portal fetching in parallel would.
    const oldUrl = `${PUBLIC_URL}/media/${oldId}/1600.jpg`;
    const responses = await Promise.all([...urls, oldUrl, oldUrl].map((url) => get(new URL(url).pathname)));
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/jpeg");
      const body = Buffer.from(await response.arrayBuffer());
      expect([...body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      const meta = await sharp(body).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 480, 360]);
    }
    // Made once and kept: the photo's size grew by one JPEG.
    const stored = await test.runtime.storage.get(`${oldId}/1600.jpg`);
    expect(stored?.contentType).toBe("image/jpeg");
    const [after] = await db().select({ bytes: media.bytes }).from(media).where(eq(media.id, oldId));
    expect(after.bytes - before.bytes).toBe(stored!.body.length);
    // An unknown photo makes nothing.
    expect((await get("/media/00000000-0000-4000-8000-000000000000/1600.jpg")).status).toBe(404);
  });

  it("deleting a photo deletes its large JPEG too, whether it came with the upload or was made later", async () => {
    const fresh = await storeImage(test.runtime, await photo("#123456"));
    const older = await storeImage(test.runtime, await photo("#654321"));
    await test.runtime.storage.delete([`${older.id}/1600.jpg`]);
    expect((await get(`/media/${older.id}/1600.jpg`)).status).toBe(200);
    for (const id of [fresh.id, older.id]) expect(await test.runtime.storage.get(`${id}/1600.jpg`)).not.toBeNull();
    expect(await deleteUnusedMedia(test.runtime, [fresh.url, older.url])).toBe(2);
    for (const id of [fresh.id, older.id]) {
      expect(await test.runtime.storage.get(`${id}/1600.jpg`)).toBeNull();
      const response = await get(`/media/${id}/1600.jpg`);
      expect(response.status).toBe(404);
      expect(await test.runtime.storage.get(`${id}/1600.jpg`)).toBeNull(); // not made again
    }
  });

  it("answers 304 to a portal that has the current copy (ETag first, else Last-Modified)", async () => {
    const { response } = await feed();
    const etag = response.headers.get("etag")!;
    const lastModified = response.headers.get("last-modified")!;

    const same = await get(FEED, { "If-None-Match": etag });
    expect(same.status).toBe(304);
    expect(same.headers.get("etag")).toBe(etag);
    expect(await same.text()).toBe("");
    expect((await get(FEED, { "If-None-Match": `W/"other", ${etag}` })).status).toBe(304);
    expect((await get(FEED, { "If-Modified-Since": lastModified })).status).toBe(304);
    // If-None-Match wins: another ETag is a new copy whatever the date says.
    const other = await get(FEED, { "If-None-Match": 'W/"vrsync-1-old"', "If-Modified-Since": lastModified });
    expect(other.status).toBe(200);
    await other.body?.cancel();
    const older = await get(FEED, { "If-Modified-Since": new Date(Date.parse(lastModified) - 1000).toUTCString() });
    expect(older.status).toBe(200);
    await older.body?.cancel();

    // Gzip when the portal asks, and it reads back the same.
    const gzipped = await get(FEED, { "Accept-Encoding": "gzip" });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    const text = zlib.gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString("utf8");
    expect([...listingsOf(parseXml(text)).keys()].sort()).toEqual(["AP-1", "CASA-2", "LOJA-4", "LOTE-3"]);

    // HEAD: the headers without the document.
    const head = (await feedRoute.loader({ request: new Request(`${PUBLIC_URL}${FEED}`, { method: "HEAD" }), params: { file: `${TOKEN}.xml` }, context } as never)) as Response;
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(head.body).toBeNull();
  });

  it("a listing switched off, sold, left without photos or deleted leaves the feed on the next request", async () => {
    const current = async () => {
      const { response, root } = await feed();
      return { etag: response.headers.get("etag")!, lastModified: response.headers.get("last-modified")!, codes: [...listingsOf(root!).keys()].sort() };
    };
    const start = await current();
    const still = (etag: string) => get(FEED, { "If-None-Match": etag });

    // Switched off in the CRM.
    const apartment = await crmRow("AP-1");
    const off = await crmSave(ids["AP-1"], { ...apartment, publish_to_portals: false });
    expect((off as { ok: boolean }).ok).toBe(true);
    expect((await still(start.etag)).status).toBe(200);
    const afterOff = await current();
    expect(afterOff.codes).toEqual(["CASA-2", "LOJA-4", "LOTE-3"]);
    expect(portalExclusionReasons(await crmRow("AP-1"))).toEqual([PORTAL_REASONS.switchedOff]);

    // Sold in a SQL console, updated_at untouched: the ETag still notices.
    await db().execute(sql`update properties set status = 'vendido' where id = ${ids["CASA-2"]}`);
    expect((await still(afterOff.etag)).status).toBe(200);
    const afterSold = await current();
    expect(afterSold.codes).toEqual(["LOJA-4", "LOTE-3"]);

    // Its only photo removed in the CRM.
    const lot = await crmRow("LOTE-3");
    await crmSave(ids["LOTE-3"], { ...lot, images: [] });
    const afterPhoto = await current();
    expect(afterPhoto.codes).toEqual(["LOJA-4"]);
    expect(portalExclusionReasons(await crmRow("LOTE-3"))).toEqual([PORTAL_REASONS.noPhoto]);

    // Deleted in the CRM: gone, and Last-Modified is the deletion's time.
    const deleted = (await propertiesAction({
      request: makeRequest("/crm/imoveis", { form: { intent: "delete", id: ids["LOJA-4"] }, cookie: admin.cookie }),
      params: {},
      context,
    } as never)) as { ok: boolean };
    expect(deleted.ok).toBe(true);
    const afterDelete = await current();
    expect(afterDelete.codes).toEqual([]);
    const [{ at }] = await queryRows<{ at: Date | string }>(db(), sql`select max(at) as at from ${audit_log} where action = 'property.delete'`);
    const [{ newest }] = await queryRows<{ newest: Date | string }>(db(), sql`select max(updated_at) as newest from ${properties}`);
    const latest = Math.max(new Date(at).getTime(), new Date(newest).getTime());
    expect(Date.parse(afterDelete.lastModified)).toBe(Math.floor(latest / 1000) * 1000);
    expect(new Set([start.etag, afterOff.etag, afterSold.etag, afterPhoto.etag, afterDelete.etag]).size).toBe(5);

    // Back on: back in the feed.
    await crmSave(ids["AP-1"], { ...(await crmRow("AP-1")), publish_to_portals: true });
    expect((await current()).codes).toEqual(["AP-1"]);
  });

  it("streams 10,000 listings in batches: bounded chunks, read as the portal reads", { timeout: 180_000 }, async () => {
    await db().execute(sql`
      insert into properties (codigo, title, description, type, purpose, status, price, area, bedrooms, neighborhood, city, state, images)
      select 'LOTE10K-' || g, 'Apartamento de teste número ' || g, ${DESCRIPTION}, 'apartamento', 'venda', 'disponivel',
        100000 + g, 80, 2, 'Ponta Negra', 'Natal', 'RN', array['/media/' || gen_random_uuid()::text || '/800.webp']
      from generate_series(1, 10000) as g`);
    const [last] = await queryRows<{ id: string; codigo: string }>(
      db(),
      sql`select id, codigo from properties where codigo like 'LOTE10K-%' order by id desc limit 1`,
    );

    const response = (await feedRoute.loader({ request: new Request(`${PUBLIC_URL}${FEED}`), params: { file: `${TOKEN}.xml` }, context } as never)) as Response;
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const parser = new SaxesParser({ xmlns: true });
    const codes: string[] = [];
    let inId = false;
    parser.on("opentag", (tag) => (inId = tag.local === "ListingID"));
    parser.on("text", (text) => {
      if (inId) codes.push(text);
    });
    parser.on("closetag", () => (inId = false));

    const chunkBytes: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunkBytes.push(value.length);
      parser.write(decoder.decode(value, { stream: true }));
      // Deleted once the download has begun: a feed read batch by batch never gets to it.
      if (chunkBytes.length === 2) await db().delete(properties).where(eq(properties.id, last.id));
    }
    parser.write(decoder.decode()).close();

    // The 10,000 but the one deleted mid-download (beside the listings of the tests above).
    expect(codes.filter((codigo) => codigo.startsWith("LOTE10K-"))).toHaveLength(10_000 - 1);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).not.toContain(last.codigo);
    const total = chunkBytes.reduce((sum, bytes) => sum + bytes, 0);
    // One chunk per batch of 200 listings (plus the head and the end), none holding much.
    expect(chunkBytes.length).toBeGreaterThanOrEqual(Math.ceil(10_000 / FEED_BATCH_SIZE));
    expect(Math.max(...chunkBytes)).toBeLessThan(total / 20);
    expect(Math.max(...chunkBytes)).toBeLessThan(1024 * 1024);
    // That the whole document never sits in memory follows from the above: it leaves in bounded
    // chunks, batch by batch (a listing deleted after the second chunk is not in it). A heap
    // figure is left out: garbage collection decides it, and a busy machine made it flap.
  });

  describe("the CRM form's portal fields", () => {
    const base = {
      title: "Apartamento com endereço completo",
      description: DESCRIPTION,
      type: "apartamento",
      purpose: "venda",
      status: "disponivel",
      price: "350.000,00",
      neighborhood: "Lagoa Nova",
      city: "Natal",
      state: "RN",
      images: [],
    };

    it("saves the address, formats the CEP, and keeps the two switches", async () => {
      const created = await crmSave(null, { ...base, codigo: "end-1", street_address: "  Rua Jaguarari, 2100  ", cep: "59064500", display_address: true, publish_to_portals: true });
      expect((created as { ok: boolean }).ok).toBe(true);
      const row = await crmRow("END-1");
      expect(row).toMatchObject({ street_address: "Rua Jaguarari, 2100", cep: "59064-500", display_address: true, publish_to_portals: true });
      // The site shows them, since the broker said so.
      expect(await getPublicProperty(db(), row.id)).toMatchObject({ street_address: "Rua Jaguarari, 2100", cep: "59064-500" });

      // "59.064-500" is understood too; clearing the address clears it; hiding it hides it from the site.
      await crmSave(row.id, { ...row, street_address: "", cep: "59.064-500", display_address: false });
      const edited = await crmRow("END-1");
      expect(edited).toMatchObject({ street_address: null, cep: "59064-500", display_address: false });
      expect(await getPublicProperty(db(), row.id)).toMatchObject({ street_address: null, cep: null });

      // A hand-made form post: an unticked box is absent, so off.
      const { images: _none, ...fields } = base;
      const posted = await propertiesAction({
        request: makeRequest("/crm/imoveis", { form: { intent: "create", ...fields, codigo: "END-2" }, cookie: admin.cookie }),
        params: {},
        context,
      } as never);
      expect(posted).toMatchObject({ ok: true });
      expect(await crmRow("END-2")).toMatchObject({ publish_to_portals: false, display_address: false, street_address: null, cep: null });
    });

    it("refuses a bad address or CEP with a Portuguese message (400, never 500), and stores nothing", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ street_address: "ab" }, ADDRESS_MESSAGES.min],
        [{ street_address: "🏠🏠" }, ADDRESS_MESSAGES.min],
        [{ street_address: "R".repeat(201) }, ADDRESS_MESSAGES.max],
        [{ street_address: "🏠".repeat(201) }, ADDRESS_MESSAGES.max],
        [{ street_address: "Rua\u0000 A" }, ADDRESS_MESSAGES.invalid],
        [{ street_address: "Rua \uD800 A" }, ADDRESS_MESSAGES.invalid],
        [{ street_address: 42 }, ADDRESS_MESSAGES.invalid],
        [{ cep: "5906-450" }, ADDRESS_MESSAGES.cep],
        [{ cep: "590645000" }, ADDRESS_MESSAGES.cep],
        [{ cep: "ABCDE-FGH" }, ADDRESS_MESSAGES.cep],
        [{ cep: 59064500 }, ADDRESS_MESSAGES.cep],
        [{ publish_to_portals: { yes: true } }, "Publicar nos portais inválido"],
      ];
      for (const [change, message] of cases) {
        const codigo = `RUIM-${cases.findIndex((entry) => entry[0] === change)}`;
        const result = (await crmSave(null, { ...base, codigo, ...change })) as { init: { status: number }; data: { message: string } };
        expect(result.init.status, JSON.stringify(change)).toBe(400);
        expect(result.data.message).toBe(message);
        expect(await db().select({ id: properties.id }).from(properties).where(eq(properties.codigo, codigo))).toHaveLength(0);
      }
      // 200 emoji are 200 characters, as the database counts them.
      expect(await crmSave(null, { ...base, codigo: "EMOJI-200", street_address: "🏠".repeat(200) })).toMatchObject({ ok: true });
    });
  });
});
