import crypto from "node:crypto";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { properties } from "~/db/schema";
import { SETTING_KEYS } from "~/features/settings/keys";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import type { BrokerProfile } from "~/features/site/broker-profile";
import { errorFields, logger } from "~/lib/logger.server";
import { isInPortalFeed } from "./feed-rules";
import { FEED_TOKEN_PATTERN, loadPortalKeys, sameSecret } from "./portal-keys.server";
import { writeVrsyncListing } from "./vrsync-listing";
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
export const FEED_FORMAT_VERSION = 2; // 2: issue 22's fields; no street when the address is hidden
export const FEED_BATCH_SIZE = 200;

// The listing's own XML and the tables it uses live in vrsync-listing.ts (pure, unit-testable).
export { PORTAL_PROPERTY_TYPES, STATE_NAMES, TRANSACTION_TYPES } from "./vrsync-listing";

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
  // Issue 22 (decision 022).
  condo_fee: properties.condo_fee,
  iptu_yearly: properties.iptu_yearly,
  suites: properties.suites,
  total_area: properties.total_area,
  floor: properties.floor,
  total_floors: properties.total_floors,
  year_built: properties.year_built,
  furnished: properties.furnished,
  pets_allowed: properties.pets_allowed,
  rental_guarantees: properties.rental_guarantees,
  features: properties.features,
  address_number: properties.address_number,
  address_complement: properties.address_complement,
  latitude: properties.latitude,
  longitude: properties.longitude,
  video_url: properties.video_url,
  tour_url: properties.tour_url,
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
          for (const row of rows) if (isInPortalFeed(row)) writeVrsyncListing(xml, row, context);
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
            bathrooms, parking_spaces, neighborhood, city, state, images, street_address, cep, display_address,
            condo_fee, iptu_yearly, suites, total_area, floor, total_floors, year_built, furnished, pets_allowed,
            rental_guarantees, features, address_number, address_complement, latitude, longitude, video_url, tour_url)::text), '' order by id)), '')
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
