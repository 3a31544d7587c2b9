import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { Duplex } from "node:stream";
import zlib from "node:zlib";
import { serveStatic } from "@hono/node-server/serve-static";
import type { HttpBindings } from "@hono/node-server";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { isbot } from "isbot";
import type { Logger } from "pino";
import { createRequestHandler, type ServerBuild } from "react-router";
import { type CachedEntry, PageCache, type RenderOutcome, createEntry, etagMatches, normalizeSearch, preferredEncoding, shareablePage } from "./page-cache";
import { overloadGuard, overloadOptionsFromEnv, unavailableAnswer } from "./overload";

/**
 * The production HTTP server around the React Router app. In order, for every request: a request
 * id and one log line, compression, security headers with a per-request CSP nonce, the refusal
 * of writes from foreign origins, body-size limits, no-store for anything signed in, static files
 * (precompressed at build), the public page cache (anonymous GETs of public pages, see
 * page-cache.ts), and finally the app, which sees the request at its public address (PUBLIC_URL)
 * with the client's address. createApp() builds it the same way for `npm start` and for tests.
 */

type AppEntryExports = {
  securityHeaders(options: { nonce?: string; scriptHashes?: string[]; https?: boolean }): Record<string, string>;
  /** Calls `listener` on every change that can alter a public page; resolves once listening. */
  onPublicDataChange?(listener: () => void): Promise<() => void>;
  /** PAGE_CACHE_MAX_BYTES (0: no cache). */
  pageCacheMaxBytes?(): number;
  getLogger(): Logger;
  errorFields(error: unknown): Record<string, unknown>;
  MAX_UPLOAD_BYTES: number;
  /** Adds one view of a property page to the in-memory batch (issue 12). */
  countPropertyView?(propertyId: string): void;
  /** How long requests have been waiting for a database connection (issue 21). */
  connectionWait?(): { longestMs: number };
};

export type AppOptions = {
  build: ServerBuild;
  /** Folder with the browser assets (build/client). */
  clientDir: string;
  /** The site's public address (PUBLIC_URL): the only origin allowed to write, and the URL the app sees. */
  publicUrl: string;
  /** Take the client's address from X-Forwarded-For (only behind a proxy you control). */
  trustProxy: boolean;
  /** With trustProxy: how many proxies of ours append to X-Forwarded-For (TRUST_PROXY_HOPS). */
  trustProxyHops?: number;
  /** Defaults to whether publicUrl is https. */
  https?: boolean;
  /** Overrides PAGE_CACHE_MAX_BYTES (0: no cache). */
  pageCacheMaxBytes?: number;
};

type Env = { Bindings: HttpBindings; Variables: { cspNonce: string; requestId: string } };

/** Forms and JSON: the largest legitimate body (a listing with 30 photo URLs) is a few KB. */
export const FORM_BODY_LIMIT = 64 * 1024;
/** Room for a multipart envelope around one photo. */
const MULTIPART_FRAMING = 64 * 1024;
const UPLOAD_PATH = /^\/crm\/midia(\.data)?\/?$/;

export const MESSAGES = {
  foreignOrigin: "Pedido recusado: envie o formulário pelo próprio site.",
  tooLarge: "Conteúdo grande demais: o limite é de 64 KB.",
  photoTooLarge: "arquivo maior que 5 MB",
  serverError: "Erro interno. Tente novamente.",
} as const;

export function createApp(options: AppOptions) {
  const app = new Hono<Env>();
  const entry = options.build.entry.module as unknown as AppEntryExports;
  const handler = createRequestHandler(options.build, "production");
  const clientRoot = path.relative(process.cwd(), options.clientDir) || ".";
  const publicOrigin = new URL(options.publicUrl).origin;
  const https = options.https ?? publicOrigin.startsWith("https:");
  const log = entry.getLogger().child({ component: "http" });

  // One line per request. Only what says how the server behaves: never the query string, the
  // client's address, cookies or the body, which may hold a person's data.
  app.use("*", async (c, next) => {
    const started = performance.now();
    const requestId = crypto.randomUUID();
    c.set("requestId", requestId);
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    // A health probe every few seconds is noise: logged only when it fails (or at LOG_LEVEL=debug).
    const level = c.req.path === "/healthz" && c.res.status === 200 ? "debug" : "info";
    log[level](
      { reqId: requestId, method: c.req.method, path: loggedPath(c.req.path), status: c.res.status, ms: Math.round(performance.now() - started) },
      "request",
    );
  });

  app.onError((error, c) => {
    log.error({ reqId: c.get("requestId"), path: loggedPath(c.req.path), ...entry.errorFields(error) }, "request failed");
    return c.text(MESSAGES.serverError, 500);
  });

  app.use("*", compressResponses);

  // Security headers on every response; the nonce also reaches the page through the load context.
  app.use("*", async (c, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    c.set("cspNonce", nonce);
    await next();
    for (const [name, value] of Object.entries(entry.securityHeaders({ nonce, https }))) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
  });

  // A page or answer that depends on who asks must never be kept by a browser or a proxy.
  app.use("*", async (c, next) => {
    await next();
    if (isPrivateResponse(c.req.path, c.req.header("cookie"), c.res.headers)) {
      // Event streams also ask proxies not to transform (compress, buffer) them: keep that.
      const noTransform = /no-transform/.test(c.res.headers.get("Cache-Control") ?? "");
      c.res.headers.set("Cache-Control", noTransform ? "no-store, no-transform" : "no-store");
    }
  });

  // A saturated server (or database pool) answers 503 + Retry-After at once (overload.ts).
  app.use("*", overloadGuard({ ...overloadOptionsFromEnv(), databaseWait: entry.connectionWait }));

  // Writes from another site (CSRF) stop here, for pages and resource routes alike, before any
  // body is read. React Router's own check compares with the request's URL, which is ours below.
  app.use("*", async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if (!isSameOrigin(c.req.raw.headers, publicOrigin)) return c.text(MESSAGES.foreignOrigin, 403);
    return next();
  });

  // Refuse a large body before reading it (Content-Length) or as soon as a streamed one passes
  // the limit, so a 50 MB post costs the server no memory.
  const formLimit = bodyLimit({ maxSize: FORM_BODY_LIMIT, onError: (c) => c.text(MESSAGES.tooLarge, 413) });
  const uploadLimit = bodyLimit({
    maxSize: entry.MAX_UPLOAD_BYTES + MULTIPART_FRAMING,
    onError: (c) => c.json({ error: MESSAGES.photoTooLarge }, 413),
  });
  app.use("*", (c, next) => (UPLOAD_PATH.test(c.req.path) ? uploadLimit(c, next) : formLimit(c, next)));

  // Fingerprinted build assets never change: cache them for a year. Text files were compressed
  // at build (vite.config.ts writes .br and .gz beside them): served as they are, never
  // compressed again per request.
  app.use(
    "/assets/*",
    serveStatic({
      root: clientRoot,
      precompressed: true,
      onFound: (file, c) => {
        c.header("Cache-Control", "public, max-age=31536000, immutable");
        if (hasPrecompressed(file)) c.header("Vary", "Accept-Encoding");
      },
    }),
  );
  // Other public files (favicon, preview image): an hour.
  app.use(
    "*",
    serveStatic({
      root: clientRoot,
      precompressed: true,
      onFound: (file, c) => {
        c.header("Cache-Control", "public, max-age=3600");
        if (hasPrecompressed(file)) c.header("Vary", "Accept-Encoding");
      },
    }),
  );

  // --- Property page views (issue 12) ---------------------------------------------------------
  // Counted here, around the page cache, which answers most visitors without running a loader.
  // What counts is decided by propertyViewOf (below); the sums are batched in memory by the app
  // (features/reports/views.server.ts), so a page view costs no database write.
  app.use("/imoveis/*", async (c, next) => {
    await next();
    const id = propertyViewOf(c.req.method, c.req.path, c.res.status, c.req.raw.headers);
    if (id) entry.countPropertyView?.(id);
  });
  // --- end of property page views ---------------------------------------------------------------

  const maxBytes = options.pageCacheMaxBytes ?? entry.pageCacheMaxBytes?.() ?? 0;
  const cache = maxBytes > 0 && entry.onPublicDataChange ? new PageCache({ maxBytes }) : null;
  // Nothing is stored until this process hears the change events that keep entries fresh.
  let cacheListening = false;
  if (cache) {
    entry
      .onPublicDataChange!(() => cache.invalidate())
      .then(() => (cacheListening = true))
      .catch((error) => log.error({ ...entry.errorFields(error) }, "page cache disabled: change events unavailable"));
  }

  const render = (c: Context<Env>, request: Request) => {
    const clientIp = resolveClientIp(
      c.req.raw.headers,
      c.env?.incoming?.socket?.remoteAddress,
      options.trustProxy,
      options.trustProxyHops ?? 1,
    );
    // Overwrite whatever the client sent: downstream code (better-auth's limits) trusts this header.
    request.headers.set("x-client-ip", clientIp);
    log.debug({ reqId: c.get("requestId"), path: loggedPath(c.req.path) }, "app render");
    // The app marks the context when the database could not answer: 503 + Retry-After, not 500.
    const context = { cspNonce: c.get("cspNonce"), clientIp, databaseUnavailable: false };
    return handler(request, context).then((response) => unavailableAnswer(response, context.databaseUnavailable));
  };

  /** A rendered public answer as a cache entry, or as it is when it must not be shared. */
  const toOutcome = async (response: Response, nonce: string): Promise<RenderOutcome> => {
    if (
      (response.status !== 200 && response.status !== 404) ||
      !response.body ||
      response.headers.has("set-cookie") ||
      response.headers.has("content-encoding") ||
      /\b(no-store|private)\b/.test(response.headers.get("cache-control") ?? "")
    ) {
      return { response };
    }
    let body = Buffer.from(await response.arrayBuffer());
    const headers = [...response.headers].filter(([name]) => !UNSHARED_HEADERS.has(name.toLowerCase()));
    if ((response.headers.get("content-type") ?? "").startsWith("text/html")) {
      const page = shareablePage(body.toString("utf8"), nonce);
      if (!page) return { response: new Response(body, response) };
      body = Buffer.from(page.html, "utf8");
      const csp = entry.securityHeaders({ scriptHashes: page.scriptHashes, https })["Content-Security-Policy"];
      headers.push(["Content-Security-Policy", csp]);
    }
    return { entry: await createEntry(response.status, headers, body) };
  };

  app.all("*", async (c) => {
    const request = atPublicOrigin(c.req.raw, publicOrigin);
    if (cache && cacheListening && isCacheable(c.req.method, c.req.path, c.req.header("cookie"))) {
      const url = new URL(request.url);
      const search = normalizeSearch(url.pathname, url.searchParams);
      const key = `${url.pathname}${search}`;
      const result = await cache.get(key, url.pathname, async () => {
        // The page of the normalised address, for nobody in particular: no cookie reaches it,
        // and one visitor leaving does not abort the render others may be waiting for.
        const headers = new Headers(request.headers);
        headers.delete("cookie");
        const anonymous = new Request(`${url.origin}${key}`, { method: "GET", headers });
        return toOutcome(await render(c, anonymous), c.get("cspNonce"));
      });
      if ("entry" in result) {
        return serveEntry(result.entry, c.req.header("accept-encoding"), c.req.header("if-none-match"), result.state);
      }
      result.response.headers.set("X-Cache", "BYPASS");
      return result.response;
    }
    const response = await render(c, request);
    // A write through the CRM has committed: this process's next request must not see an old
    // page, even if the database's notification is still on its way (PostgreSQL).
    if (cache && c.req.method !== "GET" && c.req.method !== "HEAD" && /^\/crm(\/|\.data|$)/.test(c.req.path)) cache.invalidate();
    return response;
  });

  return app;
}

/**
 * A path as the log may show it. A calendar feed's and the portals' listing feed's file names
 * are their secret tokens (/calendario/<token>.ics, /feeds/vrsync/<token>.xml): logs are read by
 * more people, and kept longer, than the feeds.
 */
export function loggedPath(pathname: string): string {
  if (pathname.startsWith("/calendario/")) return "/calendario/[token]";
  if (pathname.startsWith("/feeds/vrsync/")) return "/feeds/vrsync/[token]";
  return pathname;
}

const PROPERTY_VIEW_PATH = /^\/imoveis\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\.data)?$/i;

/**
 * The property whose page this request viewed, or null (issue 12). A view is a GET of
 * /imoveis/<id> — the HTML document, or its .data when a visitor navigates inside the site —
 * answered 200 or 304 (a cached copy revalidated is still a view). Not counted: HEAD, other
 * statuses (404 of an unknown id), bots and link-preview crawlers (isbot; no User-Agent counts as
 * a bot), prefetches (hovering a card fetches the .data before any click), and any request with
 * better-auth's session cookie: staff looking at listings are not visitors. The cookie is not
 * validated (that would cost a database read per view); a visitor has none, and an expired one
 * left in a former staff browser is a rare undercount we accept. Known overcount: an open page
 * revalidates its .data when listings change (live updates), which counts again.
 */
export function propertyViewOf(method: string, pathname: string, status: number, headers: Headers): string | null {
  if (method !== "GET" || (status !== 200 && status !== 304)) return null;
  const match = PROPERTY_VIEW_PATH.exec(pathname);
  if (!match) return null;
  const agent = headers.get("user-agent");
  if (!agent || isbot(agent)) return null;
  if (/prefetch|prerender/i.test(`${headers.get("sec-purpose") ?? ""} ${headers.get("purpose") ?? ""} ${headers.get("x-moz") ?? ""}`)) return null;
  if (SESSION_COOKIE.test(headers.get("cookie") ?? "")) return null;
  return match[1].toLowerCase();
}

/** Headers that belong to one transfer, not to the shared content. */
const UNSHARED_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "date", "set-cookie", "x-request-id"]);

/**
 * Paths that are never the public site's pages: the CRM, sign-in, resources (the portals' feed is
 * streamed, and its file name is a secret), build files, and
 * React Router's route discovery (/__manifest: its answer depends on the `p` and `version`
 * parameters, which a page key would drop — a stale manifest makes browsers reload the page).
 * /favoritos answers for the ids a browser sends (`?ids=`), which a page key would drop too.
 */
const UNCACHED_PATH = /^\/(crm|auth|favoritos)(\.data$|\/|$)|^\/(api|media|assets|calendario|feeds)\/|^\/healthz$|^\/__manifest$/;
/** Any cookie the app reads (better-auth's, with the __Secure- prefix on https). */
const APP_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\./;

/** Anonymous GETs of the public site: no cookie of ours, nothing signed in, nothing written. */
export function isCacheable(method: string, pathname: string, cookie: string | undefined): boolean {
  return method === "GET" && !UNCACHED_PATH.test(pathname) && !(cookie && APP_COOKIE.test(cookie));
}

/**
 * One copy of a cached answer. Browsers revalidate every time (no-cache) with the ETag: a change
 * must show on the next visit, and a 304 costs the server no more than a lookup.
 */
function serveEntry(entry: CachedEntry, acceptEncoding: string | undefined, ifNoneMatch: string | undefined, state: string): Response {
  const headers = new Headers(entry.headers);
  headers.set("ETag", entry.etag);
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-cache");
  headers.set("Vary", "Accept-Encoding");
  headers.set("X-Cache", state.toUpperCase());
  if (etagMatches(ifNoneMatch, entry.etag)) {
    headers.delete("Content-Type");
    return new Response(null, { status: 304, headers });
  }
  const encoding = preferredEncoding(acceptEncoding);
  const body = entry.bodies[encoding];
  if (encoding !== "identity") headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(body.length));
  return new Response(new Uint8Array(body.buffer, body.byteOffset, body.byteLength) as unknown as BodyInit, { status: entry.status, headers });
}

const precompressedCache = new Map<string, boolean>();
/** Whether the build wrote compressed copies of this file (so the answer varies by encoding). */
function hasPrecompressed(file: string): boolean {
  if (/\.(br|gz)$/.test(file)) return true;
  let known = precompressedCache.get(file);
  if (known === undefined) {
    known = fs.existsSync(`${file}.gz`);
    precompressedCache.set(file, known);
  }
  return known;
}

/**
 * The request as the visitor addressed it: behind a TLS proxy the server sees
 * http://127.0.0.1:3000/…, while the browser, React Router's CSRF check and better-auth know the
 * site as https://www.example.com. Only the origin changes; path, query, method, headers and
 * body stay. (Concatenation, not new URL(path, base): a path such as //evil.example would be
 * read as another host.)
 */
export function atPublicOrigin(request: Request, publicOrigin: string): Request {
  const incoming = new URL(request.url);
  return new Request(`${publicOrigin}${incoming.pathname}${incoming.search}`, {
    method: request.method,
    headers: new Headers(request.headers),
    body: request.body,
    signal: request.signal,
    ...(request.body ? { duplex: "half" } : {}),
  } as RequestInit);
}

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

// better-auth's cookie, with the __Secure- prefix on https.
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;
const PRIVATE_PATH = /^\/(crm|auth)(\.data$|\/|$)/;

/**
 * Pages and data for the CRM and sign-in, anything answered to a signed-in browser, and anything
 * setting a cookie. Public static files (build assets, favicon, listing photos) are the same for
 * everyone, so a signed-in browser may keep them like anybody else.
 */
export function isPrivateResponse(pathname: string, cookie: string | undefined, responseHeaders: Headers): boolean {
  if (PRIVATE_PATH.test(pathname) || responseHeaders.has("set-cookie")) return true;
  if (!cookie || !SESSION_COOKIE.test(cookie)) return false;
  return !/\bpublic\b/.test(responseHeaders.get("cache-control") ?? "");
}

/**
 * The client's address for per-address limits. Behind TRUST_PROXY, each proxy of ours appends
 * the address it saw to X-Forwarded-For, so the client is the entry `hops` places from the
 * right; entries further left were written by the client and are ignored. Without a usable
 * entry, the connecting address.
 */
export function resolveClientIp(headers: Headers, socketAddress: string | undefined, trustProxy: boolean, hops = 1): string {
  const socket = (socketAddress ?? "unknown").replace(/^::ffff:/, "");
  if (!trustProxy) return socket;
  // Several X-Forwarded-For headers arrive joined with ", ": the same list.
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return socket;
  // Fewer entries than hops: the request skipped a proxy; the leftmost is what our nearest saw.
  const chosen = entries[Math.max(0, entries.length - hops)].replace(/^::ffff:/, "");
  return net.isIP(chosen) ? chosen : socket;
}

const COMPRESSIBLE = /^(text\/(html|css|plain|xml|javascript)|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;

/**
 * Compression of answers made for one request (cached pages and static files come compressed):
 * brotli at a fast quality when the client takes it, gzip otherwise. Event streams are skipped
 * on purpose: compression buffers, and a buffered stream delivers nothing until the buffer fills.
 */
const compressResponses: MiddlewareHandler = async (c, next) => {
  await next();
  const type = c.res.headers.get("Content-Type") ?? "";
  if (
    !c.res.body ||
    c.req.method === "HEAD" ||
    c.res.headers.has("Content-Encoding") ||
    type.startsWith("text/event-stream") ||
    !COMPRESSIBLE.test(type)
  ) {
    return;
  }
  const length = Number(c.res.headers.get("Content-Length") ?? "NaN");
  if (length < 1024) return;
  const encoding = preferredEncoding(c.req.header("Accept-Encoding"));
  if (encoding === "identity") return;
  const compressor =
    encoding === "br"
      ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } })
      : zlib.createGzip({ level: 6 });
  const { readable, writable } = Duplex.toWeb(compressor) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
  c.res = new Response(c.res.body.pipeThrough({ readable, writable }), c.res);
  // Hono copies the previous response's headers onto the new one: fix them up afterwards.
  c.res.headers.delete("Content-Length");
  c.res.headers.set("Content-Encoding", encoding);
  c.res.headers.append("Vary", "Accept-Encoding");
};
