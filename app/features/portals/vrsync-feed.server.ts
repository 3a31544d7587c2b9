import crypto from "node:crypto";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { properties } from "~/db/schema";
import type { PropertyPurpose, PropertyType } from "~/db/values";
import { mediaLargeJpegUrl, showableImages } from "~/features/media/urls";
import { SETTING_KEYS } from "~/features/settings/keys";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import type { BrokerProfile } from "~/features/site/broker-profile";
import { errorFields, logger } from "~/lib/logger.server";
import { isInPortalFeed, portalPrice, portalTitle } from "./feed-rules";
import { FEED_TOKEN_PATTERN, loadPortalKeys, sameSecret } from "./portal-keys.server";
import { XmlWriter } from "./xml-writer";

/**
 * The listings feed the portals read (ZAP Imóveis, VivaReal, OLX; issue 13):
 * GET /feeds/vrsync/<token>.xml, in Grupo OLX's VRSync format
 * (developers.grupozap.com/feeds/vrsync/: elements/listing, elements/details, examples). The
 * schema declares sequences, so the order of the elements below is the documented one:
 *
 *   ListingDataFeed > Header (Provider, Email, ContactName, PublishDate, Telephone) > Listings >
 *   Listing (ListingID, Title, TransactionType, PublicationType, DetailViewUrl, Media, Details,
 *   Location, ContactInfo).
 *
 * - Which listings: those feed-rules.ts lets in (available, 'Publicar nos portais', a photo, a
 *   price, title and description long enough); the CRM shows the others with the reason.
 * - Streamed: the listings are read in batches of FEED_BATCH_SIZE by id (keyset), each written
 *   and handed to the response before the next is read, so 10,000 listings never sit in memory
 *   at once. No transaction spans the download (the embedded database has one connection, and a
 *   slow client must not hold it): a listing changed mid-download shows as it was when its batch
 *   was read, and the next download is right.
 * - Conditional GETs: the ETag sums up everything the document depends on (a digest of the
 *   candidate listings' columns, the broker's contact details, PUBLIC_URL, FEED_FORMAT_VERSION);
 *   Last-Modified is the latest change we can date: a listing saved (updated_at), a listing
 *   deleted in the CRM (its audit row), the broker's profile saved. If-None-Match wins over
 *   If-Modified-Since (RFC 9110 §13.2.2): portals that send it notice every change, while a
 *   change made outside the app (a SQL console) moves the ETag but not Last-Modified.
 * - The token in the file name is the only key: a wrong one is a plain 404 that tells nothing,
 *   and nothing here logs the path.
 */

export const VRSYNC_NAMESPACE = "http://www.vivareal.com/schemas/1.0/VRSync";
const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";
const SCHEMA_LOCATION = `${VRSYNC_NAMESPACE} http://xml.vivareal.com/vrsync.xsd`;

/** Raise it whenever the XML changes for the same data: the ETag changes and the portals refetch. */
export const FEED_FORMAT_VERSION = 1;
export const FEED_BATCH_SIZE = 200;

export const TRANSACTION_TYPES: Record<PropertyPurpose, "For Sale" | "For Rent"> = { venda: "For Sale", aluguel: "For Rent" };

/** Our four types in VRSync's words; land has a lot area, the others a living area. */
export const PORTAL_PROPERTY_TYPES: Record<
  PropertyType,
  { usage: "Residential" | "Commercial"; propertyType: string; area: "LivingArea" | "LotArea" }
> = {
  casa: { usage: "Residential", propertyType: "Residential / Home", area: "LivingArea" },
  apartamento: { usage: "Residential", propertyType: "Residential / Apartment", area: "LivingArea" },
  terreno: { usage: "Residential", propertyType: "Residential / Land Lot", area: "LotArea" },
  ponto_comercial: { usage: "Commercial", propertyType: "Commercial / Business", area: "LivingArea" },
};

/** VRSync's State carries the name, with the UF as its abbreviation. */
export const STATE_NAMES: Record<string, string> = {
  AC: "Acre", AL: "Alagoas", AP: "Amapá", AM: "Amazonas", BA: "Bahia", CE: "Ceará", DF: "Distrito Federal",
  ES: "Espírito Santo", GO: "Goiás", MA: "Maranhão", MT: "Mato Grosso", MS: "Mato Grosso do Sul",
  MG: "Minas Gerais", PA: "Pará", PB: "Paraíba", PR: "Paraná", PE: "Pernambuco", PI: "Piauí",
  RJ: "Rio de Janeiro", RN: "Rio Grande do Norte", RS: "Rio Grande do Sul", RO: "Rondônia", RR: "Roraima",
  SC: "Santa Catarina", SP: "São Paulo", SE: "Sergipe", TO: "Tocantins",
};

const log = logger("portals");

/** What the feed reads of a listing: allow-listed (never the internal partner). */
const feedColumns = {
  id: properties.id,
  codigo: properties.codigo,
  title: properties.title,
  description: properties.description,
  type: properties.type,
  purpose: properties.purpose,
  status: properties.status,
  price: properties.price,
  area: properties.area,
  bedrooms: properties.bedrooms,
  bathrooms: properties.bathrooms,
  parking_spaces: properties.parking_spaces,
  neighborhood: properties.neighborhood,
  city: properties.city,
  state: properties.state,
  images: properties.images,
  publish_to_portals: properties.publish_to_portals,
  street_address: properties.street_address,
  cep: properties.cep,
  display_address: properties.display_address,
};

type FeedContext = { publicUrl: string; profile: BrokerProfile; publishedAt: Date };

/** The next batch of candidates after `after` (by id); the finer rules are feed-rules.ts'. */
function readBatch(db: Database, after: string | null) {
  const candidates = and(eq(properties.publish_to_portals, true), eq(properties.status, "disponivel"));
  return db
    .select(feedColumns)
    .from(properties)
    .where(after ? and(candidates, gt(properties.id, after)) : candidates)
    .orderBy(asc(properties.id))
    .limit(FEED_BATCH_SIZE);
}

type FeedRow = Awaited<ReturnType<typeof readBatch>>[number];

const absolute = (publicUrl: string, path: string) => `${publicUrl}${path}`;

function writeListing(xml: XmlWriter, row: FeedRow, context: FeedContext) {
  const kind = PORTAL_PROPERTY_TYPES[row.type];
  const { publicUrl, profile } = context;
  xml.start("Listing");
  xml.text("ListingID", row.codigo);
  xml.cdata("Title", portalTitle(row.title));
  xml.text("TransactionType", TRANSACTION_TYPES[row.purpose]);
  xml.text("PublicationType", "STANDARD");
  xml.text("DetailViewUrl", absolute(publicUrl, `/imoveis/${row.id}`));

  // The cover (the first photo) first, marked primary; JPEG, which the portals require.
  xml.start("Media");
  showableImages(row.images).forEach((url, index) => {
    xml.text("Item", absolute(publicUrl, mediaLargeJpegUrl(url)), { medium: "image", primary: index === 0 ? "true" : undefined });
  });
  xml.end();

  xml.start("Details");
  xml.text("UsageType", kind.usage);
  xml.text("PropertyType", kind.propertyType);
  xml.cdata("Description", row.description.trim());
  const price = portalPrice(row.price);
  if (row.purpose === "venda") xml.text("ListPrice", price, { currency: "BRL" });
  else xml.text("RentalPrice", price, { currency: "BRL", period: "Monthly" });
  // Whole square metres; an area that rounds to nothing is left out, like the counts below
  // (null or zero means "not given", spec §5).
  const area = row.area === null ? 0 : Math.round(Number(row.area));
  if (area > 0) xml.text(kind.area, area, { unit: "square metres" });
  if (row.bedrooms) xml.text("Bedrooms", row.bedrooms);
  if (row.bathrooms) xml.text("Bathrooms", row.bathrooms);
  if (row.parking_spaces) xml.text("Garage", row.parking_spaces, { type: "Parking Space" });
  xml.end();

  // The portals use the street and CEP to place the listing; "Neighborhood" asks them to show
  // no more than the neighbourhood unless the broker chose 'Exibir endereço'.
  xml.start("Location", { displayAddress: row.display_address ? "All" : "Neighborhood" });
  xml.text("Country", "Brasil", { abbreviation: "BR" });
  xml.text("State", STATE_NAMES[row.state] ?? row.state, { abbreviation: row.state });
  xml.text("City", row.city);
  xml.text("Neighborhood", row.neighborhood);
  if (row.street_address) xml.text("Address", row.street_address);
  if (row.cep) xml.text("PostalCode", row.cep);
  xml.end();

  xml.start("ContactInfo");
  xml.text("Name", profile.name);
  xml.text("Email", profile.email);
  xml.text("Website", publicUrl);
  xml.text("Telephone", profile.phone);
  xml.end();
  xml.end();
}

/** "2026-11-24T15:06:28Z": the documented dateTime, without milliseconds. */
const feedDate = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

function writeHead(xml: XmlWriter, context: FeedContext) {
  xml.declaration().start("ListingDataFeed", { xmlns: VRSYNC_NAMESPACE, "xmlns:xsi": XSI_NAMESPACE, "xsi:schemaLocation": SCHEMA_LOCATION });
  xml.start("Header");
  xml.text("Provider", context.profile.siteName);
  xml.text("Email", context.profile.email);
  xml.text("ContactName", context.profile.name);
  xml.text("PublishDate", feedDate(context.publishedAt));
  xml.text("Telephone", context.profile.phone);
  xml.end();
  xml.start("Listings");
}

/**
 * The document as a stream of UTF-8 chunks: the head, then one chunk per batch that has
 * listings in the feed, then the end. Each batch is read when the response asks for more.
 */
export function vrsyncStream(db: Database, context: FeedContext): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const xml = new XmlWriter();
  let started = false;
  let after: string | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          writeHead(xml, context);
          controller.enqueue(encoder.encode(xml.take()));
          return;
        }
        for (;;) {
          const rows = await readBatch(db, after);
          if (rows.length === 0) {
            xml.end().end(); // Listings, ListingDataFeed
            controller.enqueue(encoder.encode(xml.take()));
            controller.close();
            return;
          }
          after = rows[rows.length - 1].id;
          for (const row of rows) if (isInPortalFeed(row)) writeListing(xml, row, context);
          const chunk = xml.take();
          if (chunk) {
            controller.enqueue(encoder.encode(chunk));
            return;
          }
        }
      } catch (error) {
        // The status is sent already: the portal gets a truncated document and tries again later.
        log.error({ ...errorFields(error) }, "portal feed failed while streaming");
        controller.error(error);
      }
    },
  });
}

type FeedState = { etag: string; lastModified: Date };

/** Last-Modified when nothing was ever saved (an empty database with the default profile). */
const PROCESS_STARTED = Date.now();

/**
 * What the document depends on, in one query that writes nothing out: a digest of every
 * candidate listing's columns the feed reads (so any change shows, even one made in a SQL
 * console that leaves updated_at alone), and the time of the latest change we can date.
 */
async function feedState(db: Database, publicUrl: string, profile: BrokerProfile): Promise<FeedState> {
  const [{ digest, changed_ms }] = await queryRows<{ digest: string; changed_ms: number | null }>(
    db,
    sql`
      select
        (select coalesce(md5(string_agg(md5(row(id, codigo, title, description, type, purpose, status, price, area, bedrooms,
            bathrooms, parking_spaces, neighborhood, city, state, images, street_address, cep, display_address)::text), '' order by id)), '')
          from properties where publish_to_portals and status = 'disponivel') as digest,
        (extract(epoch from greatest(
          (select max(updated_at) from properties),
          (select max(at) from audit_log where action = 'property.delete'),
          (select updated_at from settings where key = ${SETTING_KEYS.brokerProfile})
        )) * 1000)::float8 as changed_ms`,
  );
  const contact = { siteName: profile.siteName, name: profile.name, email: profile.email, phone: profile.phone };
  const hash = crypto
    .createHash("sha256")
    .update(JSON.stringify({ version: FEED_FORMAT_VERSION, publicUrl, contact, digest }))
    .digest("base64url")
    .slice(0, 32);
  // Whole seconds, as HTTP dates carry them; nothing ever changed: the start of this process.
  const changed = changed_ms === null ? PROCESS_STARTED : Number(changed_ms);
  return { etag: `W/"vrsync-${FEED_FORMAT_VERSION}-${hash}"`, lastModified: new Date(Math.floor(changed / 1000) * 1000) };
}

/** Whether an If-None-Match header names this ETag (weak comparison, RFC 9110 §13.1.2). */
export function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === bare);
}

function notModified(request: Request, state: FeedState): boolean {
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null) return etagMatches(ifNoneMatch, state.etag);
  const since = Date.parse(request.headers.get("if-modified-since") ?? "");
  return Number.isFinite(since) && state.lastModified.getTime() <= since;
}

// Every answer: never in a shared cache (the URL is a secret), always revalidated, never indexed.
const COMMON_HEADERS = { "Cache-Control": "private, no-cache", "X-Robots-Tag": "noindex" };

function plain(status: number, body: string): Response {
  return new Response(body, { status, headers: { ...COMMON_HEADERS, "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" } });
}

/** The file name's token, if it is shaped like one ("<token>.xml"). */
function tokenOf(file: string | undefined): string | null {
  const match = /^(.+)\.xml$/.exec(file ?? "");
  return match && FEED_TOKEN_PATTERN.test(match[1]) ? match[1] : null;
}

/** GET (or HEAD) /feeds/vrsync/:file. */
export async function vrsyncFeedResponse(deps: { db: Database; publicUrl: string }, request: Request, file: string | undefined): Promise<Response> {
  try {
    const token = tokenOf(file);
    const { feedToken } = await loadPortalKeys(deps.db);
    if (!token || !sameSecret(token, feedToken)) return plain(404, "Não encontrado.");

    const profile = await loadBrokerProfile(deps.db);
    const state = await feedState(deps.db, deps.publicUrl, profile);
    const headers = { ...COMMON_HEADERS, ETag: state.etag, "Last-Modified": state.lastModified.toUTCString() };
    if (notModified(request, state)) return new Response(null, { status: 304, headers });

    const body = request.method === "HEAD" ? null : vrsyncStream(deps.db, { publicUrl: deps.publicUrl, profile, publishedAt: state.lastModified });
    return new Response(body, { headers: { ...headers, "Content-Type": "application/xml; charset=utf-8" } });
  } catch (error) {
    // Answered here rather than thrown: React Router's error log would print the path (the token).
    log.error({ ...errorFields(error) }, "portal feed failed");
    return plain(500, "Erro interno. Tente novamente.");
  }
}
