import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { propertiesPublic, whatsapp_clicks } from "~/db/schema";
import { WHATSAPP_PAGES, type WhatsappPage } from "~/db/values";
import { type BrokerProfile, whatsappLink } from "~/features/site/broker-profile";
import { errorFields, logger } from "~/lib/logger.server";
import { isCountedVisitor } from "~/lib/visitor.server";
import { SITE_MESSAGE_KEY, WHATSAPP_PARAMS } from "./links";
import { listingWhatsappMessage, SITE_MESSAGE } from "./messages";

/**
 * GET /whatsapp (issue 25, decision 028): every WhatsApp button of the public site leads here.
 * The tap is recorded (when, the page's short name, the listing) and the visitor is sent on with
 * 302 to the wa.me address the button had before. The destination is always the broker's own
 * number from the profile, built here; the query only chooses the prefilled text. Whatever the
 * query holds, the answer is a redirect to the chat: a malformed one goes to the general
 * greeting unrecorded, an unknown listing code to the general greeting recorded without a listing.
 */

const log = logger("whatsapp");

/** The longest listing code (properties_codigo_length). */
const CODIGO_MAX = 50;
/** Taps an address may have recorded per window, per process: more are redirected, not recorded. */
export const TAP_LIMIT = { max: 10, windowMs: 10 * 60_000 };
/** A slow database never holds the visitor longer than this: the tap is written or logged later. */
const RECORD_WAIT_MS = 1_000;

export type WhatsappDeps = { db: Database; broker: BrokerProfile; publicUrl: string; ip: string };

type Query = { page: WhatsappPage; codigo: string | null; siteMessage: boolean };

/** The query as our own links write it, or null for anything else. */
export function parseWhatsappQuery(params: URLSearchParams): Query | null {
  const page = params.get(WHATSAPP_PARAMS.page) ?? "outra";
  if (!(WHATSAPP_PAGES as readonly string[]).includes(page)) return null;
  const message = params.get(WHATSAPP_PARAMS.message);
  if (message !== null && message !== SITE_MESSAGE_KEY) return null;
  const raw = params.get(WHATSAPP_PARAMS.listing);
  const codigo = raw === null ? null : raw.trim().toUpperCase();
  if (codigo !== null && (codigo.length === 0 || codigo.length > CODIGO_MAX)) return null;
  return { page: page as WhatsappPage, codigo, siteMessage: message === SITE_MESSAGE_KEY };
}

// Per address, in this process only: a bound on what one script can add, kept in memory and never
// written anywhere (the address is not stored).
const taps = new Map<string, { count: number; since: number }>();
const MAX_TRACKED = 10_000;

function withinLimit(ip: string, now: number): boolean {
  const entry = taps.get(ip);
  if (!entry || now - entry.since >= TAP_LIMIT.windowMs) {
    if (taps.size >= MAX_TRACKED) taps.clear();
    taps.set(ip, { count: 1, since: now });
    return true;
  }
  entry.count += 1;
  return entry.count <= TAP_LIMIT.max;
}

/** Forgets the addresses' counts (tests). */
export function resetTapLimits(): void {
  taps.clear();
}

async function findListing(db: Database, codigo: string) {
  const [row] = await db
    .select({ id: propertiesPublic.id, title: propertiesPublic.title, codigo: propertiesPublic.codigo, price: propertiesPublic.price, purpose: propertiesPublic.purpose })
    .from(propertiesPublic)
    .where(eq(propertiesPublic.codigo, codigo))
    .limit(1);
  return row ?? null;
}

async function record(db: Database, page: WhatsappPage, propertyId: string | null): Promise<void> {
  const write = db
    .insert(whatsapp_clicks)
    .values({ page, property_id: propertyId })
    .then(() => undefined)
    .catch((error: unknown) => log.warn({ ...errorFields(error) }, "whatsapp tap not recorded"));
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([write, new Promise<void>((resolve) => (timer = setTimeout(resolve, RECORD_WAIT_MS)))]);
  clearTimeout(timer);
}

export async function whatsappRedirect(request: Request, deps: WhatsappDeps): Promise<Response> {
  const query = parseWhatsappQuery(new URL(request.url).searchParams);
  let message: string | undefined = query?.siteMessage ? SITE_MESSAGE : undefined;
  let propertyId: string | null = null;
  if (query?.codigo) {
    // The listing's text needs its row; a database that cannot answer still lets the visitor chat.
    const listing = await findListing(deps.db, query.codigo).catch((error: unknown) => {
      log.warn({ ...errorFields(error) }, "listing of a whatsapp tap not read");
      return null;
    });
    message = listing ? listingWhatsappMessage(listing, deps.publicUrl) : SITE_MESSAGE;
    propertyId = listing?.id ?? null;
  }
  if (!query) message = SITE_MESSAGE;
  if (query && request.method === "GET" && isCountedVisitor(request.headers) && withinLimit(deps.ip, Date.now())) {
    await record(deps.db, query.page, propertyId);
  }
  // The profile's number is digits only (settings schema); nothing from the query reaches the host.
  const number = deps.broker.whatsapp.replace(/\D/g, "");
  return new Response(null, {
    status: 302,
    headers: {
      Location: whatsappLink(number, message),
      "Cache-Control": "no-store",
      "X-Robots-Tag": "noindex, nofollow",
      "Referrer-Policy": "no-referrer",
    },
  });
}
