import crypto from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { canonicalPath, loggedPath } from "../app/lib/request-path";
import { type CachedEntry, type Encoding, type PageCache, etagMatches, normalizeSearch, preferredEncoding } from "./page-cache";
import { isCacheable, propertyViewOf } from "./request-rules";

/**
 * The cache hit's fast path (issue 26, item 3; docs/decisions/033-cache-hit-fast-path.md). A hit
 * used to pass the whole middleware chain of server/app.ts: two static-file lookups on disk, a
 * fresh nonce it then did not use, and a dozen header objects copied per response — about 16
 * times what the bare server needs for the same bytes. Here, first in the chain, an anonymous
 * GET or HEAD of a page already in the cache is answered from header records prepared once per
 * entry, handed to Node as they are. What the chain guarantees still holds, by the same rules:
 * request id and log line, the overload guard (a refusal falls through, so the chain gives its
 * own 503), the cookie rule that bypasses the cache, the canonical path (any other spelling
 * falls through to its redirect), ETag/304, the negotiated encoding, HEAD, the property-view
 * count. Anything else — a miss, a cookie, an uncacheable path — goes through the chain
 * unchanged.
 */

export type CacheHitOptions = {
  /** The page cache, or null while it stores nothing (off, or not yet hearing changes). */
  cache: () => PageCache | null;
  /** The security headers the chain would add to this path's answer (no nonce: none is used). */
  securityHeaders: (path: string) => Record<string, string>;
  /** Whether the overload guard admits a request with this method now (and whether it needs the database). */
  admits: (method: string, usesDatabase?: boolean) => boolean;
  countPropertyView?: (propertyId: string) => void;
  log: Logger;
};

/** An entry's answers, ready to write: one header record per encoding and one for 304. */
type Prepared = Record<Encoding, Record<string, string>> & { notModified: Record<string, string> };

/**
 * The headers of one copy of a cached answer, as the chain sends them (server/app.ts uses this
 * too). Browsers revalidate every time (no-cache) with the ETag: a change must show on the next
 * visit, and a 304 costs the server no more than a lookup. `encoding` null: the 304.
 */
export function entryHeaders(entry: CachedEntry, encoding: Encoding | null, state: string): Headers {
  const headers = new Headers(entry.headers);
  headers.set("ETag", entry.etag);
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-cache");
  headers.set("Vary", "Accept-Encoding");
  headers.set("X-Cache", state.toUpperCase());
  if (encoding === null) {
    headers.delete("Content-Type");
    return headers;
  }
  if (encoding !== "identity") headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(entry.bodies[encoding].length));
  return headers;
}

/** One copy of a cached answer, as the chain serves it (a hit the fast path did not take, a miss, a shared render). */
export function serveEntry(entry: CachedEntry, acceptEncoding: string | undefined, ifNoneMatch: string | undefined, state: string): Response {
  if (etagMatches(ifNoneMatch, entry.etag)) return new Response(null, { status: 304, headers: entryHeaders(entry, null, state) });
  const encoding = preferredEncoding(acceptEncoding);
  const body = entry.bodies[encoding];
  const headers = entryHeaders(entry, encoding, state);
  return new Response(new Uint8Array(body.buffer, body.byteOffset, body.byteLength) as unknown as BodyInit, { status: entry.status, headers });
}

export function cacheHit(options: CacheHitOptions): MiddlewareHandler {
  // Entries are replaced, never changed: what was prepared for one lives and dies with it.
  const prepared = new WeakMap<CachedEntry, Prepared>();
  const prepare = (entry: CachedEntry, path: string): Prepared => {
    let found = prepared.get(entry);
    if (found) return found;
    const security = options.securityHeaders(path);
    const record = (encoding: Encoding | null) => {
      const headers = entryHeaders(entry, encoding, "hit");
      // As the chain's security middleware: the entry's own headers (its CSP with the scripts'
      // hashes) win.
      for (const [name, value] of Object.entries(security)) if (!headers.has(name)) headers.set(name, value);
      return Object.fromEntries(headers);
    };
    found = { identity: record("identity"), br: record("br"), gzip: record("gzip"), notModified: record(null) };
    prepared.set(entry, found);
    return found;
  };

  return (c, next) => {
    const method = c.req.method;
    if (method !== "GET" && method !== "HEAD") return next();
    const cache = options.cache();
    if (!cache) return next();
    const url = new URL(c.req.url);
    const path = canonicalPath(url.pathname);
    // Another spelling of a page is redirected by the chain; a `.data` request is answered for
    // the canonical path, as there.
    if (path !== url.pathname && !url.pathname.endsWith(".data")) return next();
    if (!isCacheable("GET", path, c.req.header("cookie")) || !options.admits(method, false)) return next();
    const entry = cache.peek(`${path}${normalizeSearch(path, url.searchParams)}`);
    if (!entry) return next();

    const started = performance.now();
    const answers = prepare(entry, path);
    const requestId = crypto.randomUUID();
    let response: Response;
    if (etagMatches(c.req.header("if-none-match"), entry.etag)) {
      response = new Response(null, { status: 304, headers: { ...answers.notModified, "x-request-id": requestId } });
    } else {
      const encoding = preferredEncoding(c.req.header("accept-encoding"));
      // HEAD: Hono sends these headers without the body.
      response = new Response(entry.bodies[encoding] as unknown as BodyInit, { status: entry.status, headers: { ...answers[encoding], "x-request-id": requestId } });
    }
    const status = response.status;
    const viewed = propertyViewOf(method, path, status, c.req.raw.headers);
    if (viewed) options.countPropertyView?.(viewed);
    options.log.info({ reqId: requestId, method, path: loggedPath(path), status, ms: Math.round(performance.now() - started) }, "request");
    return Promise.resolve(response);
  };
}
