import { isCountedVisitor, SESSION_COOKIE } from "../app/lib/visitor.server";

/**
 * What the HTTP server (server/app.ts) decides from a request's path and headers: which writes
 * may come from another origin, what is private, what the public page cache may keep, what is a
 * view of a property page. Every rule takes the canonical path (app/lib/request-path.ts), the one
 * spelling React Router's matching comes down to, so /CRM is as private as /crm.
 */

/** Any cookie the app reads (better-auth's, with the __Secure- prefix on https). */
const APP_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\./;
const PRIVATE_PATH = /^\/(crm|auth)(\.data$|\/|$)/;
/**
 * The installable CRM's files (decision 029): the same for everyone, fetched by browsers without
 * cookies (the manifest) or revalidated on every update check (the worker), so they keep the
 * caching their own answer names instead of no-store.
 */
export const CRM_PUBLIC_FILES = new Set(["/crm/sw.js", "/crm/offline.html", "/crm/manifest.webmanifest"]);

/**
 * Whether a write comes from our own pages. Browsers send Origin on every cross-site POST (and
 * "null" from sandboxed or privacy-sensitive contexts, refused too). Without Origin, a browser
 * still tells where a request came from in Sec-Fetch-Site; a client that sends neither (curl, a
 * server) is not a browser a victim could be lured into, so it passes, as React Router does.
 */
export function isSameOrigin(headers: Headers, publicOrigin: string): boolean {
  const origin = headers.get("origin");
  if (origin !== null) return origin === publicOrigin;
  const site = headers.get("sec-fetch-site");
  return site !== "cross-site" && site !== "same-site";
}

/** Routes that authenticate every request by its own header (HTTP Basic), never by a session cookie. */
const HEADER_AUTHENTICATED_PATHS = new Set(["/api/portais/leads"]);
/** Body types a page on another site can send without a CORS preflight (an HTML form, a no-cors fetch). */
const SIMPLE_BODY_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\s*(;|$)/i;

/**
 * Whether a write may pass the origin check: it comes from our own pages, or it is a
 * server-to-server call to a route that authenticates each request itself (issue 21, finding 14:
 * a portal whose HTTP library adds an Origin header got 403). Such a call is no forgery a
 * browser could be lured into: it carries its own credentials (Authorization) and no cookie,
 * with a body type that a page on another site can send only after a CORS preflight, which this
 * server never grants. (A browser may attach Basic credentials it remembers to a cross-site form
 * post; that post has a form's body type and is refused.)
 */
export function mayWrite(path: string, headers: Headers, publicOrigin: string): boolean {
  if (isSameOrigin(headers, publicOrigin)) return true;
  if (!HEADER_AUTHENTICATED_PATHS.has(path)) return false;
  const type = headers.get("content-type");
  return headers.has("authorization") && !headers.has("cookie") && type !== null && !SIMPLE_BODY_TYPE.test(type.trim());
}

/**
 * Pages and data for the CRM and sign-in, anything answered to a signed-in browser, and anything
 * setting a cookie. Public static files (build assets, favicon, listing photos) are the same for
 * everyone, so a signed-in browser may keep them like anybody else.
 */
export function isPrivateResponse(path: string, cookie: string | undefined, responseHeaders: Headers): boolean {
  if (responseHeaders.has("set-cookie")) return true;
  if (CRM_PUBLIC_FILES.has(path)) return false;
  if (PRIVATE_PATH.test(path)) return true;
  if (!cookie || !SESSION_COOKIE.test(cookie)) return false;
  return !/\bpublic\b/.test(responseHeaders.get("cache-control") ?? "");
}

/**
 * Paths that are never the public site's pages: the CRM, sign-in, resources (the portals' feed is
 * streamed, and its file name is a secret), build files, and
 * React Router's route discovery (/__manifest: its answer depends on the `p` and `version`
 * parameters, which a page key would drop — a stale manifest makes browsers reload the page).
 * /favoritos answers for the ids a browser sends (`?ids=`), which a page key would drop too.
 * A listing's ficha (…/ficha.pdf) is a PDF drawn per request, revalidated by its own ETag and
 * limited per address: a cached copy would skip the limit and hold megabytes per listing.
 * /whatsapp records each tap before it redirects (decision 028): a cached 302 would record none.
 */
const UNCACHED_PATH = /^\/(crm|auth|favoritos|alertas|whatsapp)(\.data$|\/|$)|^\/(api|media|assets|calendario|feeds)\/|^\/healthz$|^\/__manifest$|\/ficha\.pdf$/;

/** Anonymous GETs of the public site: no cookie of ours, nothing signed in, nothing written. */
export function isCacheable(method: string, path: string, cookie: string | undefined): boolean {
  return method === "GET" && !UNCACHED_PATH.test(path) && !(cookie && APP_COOKIE.test(cookie));
}

const PROPERTY_VIEW_PATH = /^\/imoveis\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\.data)?$/i;

/**
 * The property whose page this request viewed, or null (issue 12). A view is a GET of
 * /imoveis/<id> — the HTML document, or its .data when a visitor navigates inside the site —
 * answered 200 or 304 (a cached copy revalidated is still a view). Not counted: HEAD, other
 * statuses (404 of an unknown id), and whoever is no counted visitor (app/lib/visitor.server.ts:
 * bots, link previews, prefetches, signed-in staff). Known overcount: an open page
 * revalidates its .data when listings change (live updates), which counts again.
 */
export function propertyViewOf(method: string, path: string, status: number, headers: Headers): string | null {
  if (method !== "GET" || (status !== 200 && status !== 304)) return null;
  const match = PROPERTY_VIEW_PATH.exec(path);
  if (!match) return null;
  if (!isCountedVisitor(headers)) return null;
  return match[1].toLowerCase();
}
