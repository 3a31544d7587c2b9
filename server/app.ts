import crypto from "node:crypto";
import path from "node:path";
import type { HttpBindings } from "@hono/node-server";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Logger } from "pino";
import { createRequestHandler, type ServerBuild } from "react-router";
import { canonicalPath, loggedPath } from "../app/lib/request-path";
import { proxyList, resolveClientIp } from "./client-address";
import { cacheHit, serveEntry } from "./cache-hit";
import { compressResponses } from "./compression";
import { PageCache, normalizeSearch, renderOutcome } from "./page-cache";
import { buildAssets, buildFileHeaders, isBuildFile, publicFiles } from "./static-files";
import { overloadGuard, overloadOptionsFromEnv, unavailableAnswer } from "./overload";
import { CRM_PUBLIC_FILES, isCacheable, isPrivateResponse, mayWrite, propertyViewOf } from "./request-rules";

// The rules, for tests and tools that judge a request the way the server does.
export { loggedPath } from "../app/lib/request-path";
export { isCacheable, isPrivateResponse, isSameOrigin, propertyViewOf } from "./request-rules";
export { resolveClientIp } from "./client-address";

/**
 * The production HTTP server around the React Router app. A hit of the public page cache is
 * answered first, by the fast path of cache-hit.ts, which keeps the guarantees below that apply
 * to it (decision 033). In order, for every other request: its canonical path (the one every
 * rule below sees), a request id and one log line, compression,
 * security headers with a per-request CSP nonce, no-store for anything signed in, the overload
 * guard, the refusal of writes from foreign origins and of methods the site does not use,
 * body-size limits, static files (precompressed at build), a redirect of any other spelling of a
 * page to its canonical path, the public page cache (anonymous GETs of public pages, see
 * page-cache.ts), and finally the app, which sees the request at its public address (PUBLIC_URL)
 * and canonical path, with the client's address. createApp() builds it the same way for
 * `npm start` and for tests.
 */

type AppEntryExports = {
  /** `path`: the request's canonical path (property pages may frame the listing's video and tour). */
  securityHeaders(options: { nonce?: string; scriptHashes?: string[]; https?: boolean; path?: string }): Record<string, string>;
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
  /** With trustProxy: where our nearest proxy connects from (TRUSTED_PROXIES; default loopback). */
  trustedProxies?: readonly string[];
  /** Defaults to whether publicUrl is https. */
  https?: boolean;
  /** Overrides PAGE_CACHE_MAX_BYTES (0: no cache). */
  pageCacheMaxBytes?: number;
  /** false: cache hits go through the whole chain too (tests compare the two answers). */
  cacheFastPath?: boolean;
  /** A cache shared with another app (tests: the fast path and the chain serve the same entries). */
  pageCache?: PageCache;
};

type Env = { Bindings: HttpBindings; Variables: { cspNonce: string; requestId: string; path: string } };

/** Forms and JSON: the largest legitimate body (a listing with 30 photo URLs) is a few KB. */
export const FORM_BODY_LIMIT = 64 * 1024;
/** Room for a multipart envelope around one photo. */
const MULTIPART_FRAMING = 64 * 1024;
const UPLOAD_PATH = /^\/crm\/midia(\.data)?$/;
/** An owner's page takes the signed authorisation (PDF, up to 10 MB; decision 024). */
const DOCUMENT_UPLOAD_PATH = /^\/crm\/proprietarios\/[0-9a-fA-F-]{36}(\.data)?$/;
const DOCUMENT_UPLOAD_BYTES = 10 * 1024 * 1024;
/** What the site answers to: pages and resources are read with GET/HEAD and written with POST. */
const ALLOWED_METHODS = new Set(["GET", "HEAD", "POST"]);
const ALLOW = "GET, HEAD, POST";

export const MESSAGES = {
  foreignOrigin: "Pedido recusado: envie o formulário pelo próprio site.",
  tooLarge: "Conteúdo grande demais: o limite é de 64 KB.",
  photoTooLarge: "arquivo maior que 5 MB",
  serverError: "Erro interno. Tente novamente.",
  methodNotAllowed: "Método não permitido.",
} as const;

export function createApp(options: AppOptions) {
  const app = new Hono<Env>();
  const entry = options.build.entry.module as unknown as AppEntryExports;
  const handler = createRequestHandler(options.build, "production");
  const clientRoot = path.relative(process.cwd(), options.clientDir) || ".";
  const publicOrigin = new URL(options.publicUrl).origin;
  const https = options.https ?? publicOrigin.startsWith("https:");
  const log = entry.getLogger().child({ component: "http" });
  const proxyPolicy = { trustProxy: options.trustProxy, hops: options.trustProxyHops ?? 1, trusted: proxyList(options.trustedProxies) };
  let toldOfUntrustedPeer = false;

  const maxBytes = options.pageCacheMaxBytes ?? entry.pageCacheMaxBytes?.() ?? 0;
  const cache = maxBytes > 0 && entry.onPublicDataChange ? (options.pageCache ?? new PageCache({ maxBytes })) : null;
  // Nothing is stored until this process hears the change events that keep entries fresh.
  let cacheListening = false;
  if (cache) {
    entry
      .onPublicDataChange!(() => cache.invalidate())
      .then(() => (cacheListening = true))
      .catch((error) => log.error({ ...entry.errorFields(error) }, "page cache disabled: change events unavailable"));
  }
  const guard = overloadGuard({ ...overloadOptionsFromEnv(), databaseWait: entry.connectionWait });

  if (cache && options.cacheFastPath !== false) {
    app.use(
      "*",
      cacheHit({
        cache: () => (cacheListening ? cache : null),
        securityHeaders: (path) => entry.securityHeaders({ https, path }),
        admits: guard.admits,
        countPropertyView: entry.countPropertyView,
        log,
      }),
    );
  }

  // One line per request. Only what says how the server behaves: never the query string, the
  // client's address, cookies or the body, which may hold a person's data.
  app.use("*", async (c, next) => {
    const started = performance.now();
    const requestId = crypto.randomUUID();
    c.set("requestId", requestId);
    // The path as React Router will match it (issue 21): every rule below reads this one.
    c.set("path", canonicalPath(new URL(c.req.url).pathname));
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    // A health probe every few seconds is noise: logged only when it fails (or at LOG_LEVEL=debug).
    const level = c.get("path") === "/healthz" && c.res.status === 200 ? "debug" : "info";
    log[level](
      { reqId: requestId, method: c.req.method, path: loggedPath(c.get("path")), status: c.res.status, ms: Math.round(performance.now() - started) },
      "request",
    );
  });

  app.onError((error, c) => {
    log.error({ reqId: c.get("requestId"), path: loggedPath(c.get("path") ?? c.req.path), ...entry.errorFields(error) }, "request failed");
    return c.text(MESSAGES.serverError, 500);
  });

  app.use("*", compressResponses);

  // Security headers on every response; the nonce also reaches the page through the load context.
  app.use("*", async (c, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    c.set("cspNonce", nonce);
    await next();
    const headers = isBuildFile(c.get("path"), c.res) ? buildFileHeaders(https) : entry.securityHeaders({ nonce, https, path: c.get("path") });
    for (const [name, value] of Object.entries(headers)) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
  });

  // A page or answer that depends on who asks must never be kept by a browser or a proxy.
  app.use("*", async (c, next) => {
    await next();
    if (isPrivateResponse(c.get("path"), c.req.header("cookie"), c.res.headers)) {
      // Event streams also ask proxies not to transform (compress, buffer) them: keep that.
      const noTransform = /no-transform/.test(c.res.headers.get("Cache-Control") ?? "");
      c.res.headers.set("Cache-Control", noTransform ? "no-store, no-transform" : "no-store");
    }
  });

  // A saturated server (or database pool) answers 503 + Retry-After at once (overload.ts).
  app.use("*", guard);

  // Writes from another site (CSRF) stop here, for pages and resource routes alike, before any
  // body is read. React Router's own check compares with the request's URL, which is ours below.
  app.use("*", async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if (!mayWrite(c.get("path"), c.req.raw.headers, publicOrigin)) return c.text(MESSAGES.foreignOrigin, 403);
    return next();
  });

  // TRACE, PUT, OPTIONS…: the site has no use for them (and TRACE cannot even be handed to the
  // app: the Fetch API refuses to build such a request). React Router's own 405 (a POST to a page
  // without a form, a GET of a resource that only takes posts) gets the Allow header it lacks and,
  // from a resource route, a message instead of "Unexpected Server Error".
  app.use("*", async (c, next) => {
    if (!ALLOWED_METHODS.has(c.req.method)) return c.text(MESSAGES.methodNotAllowed, 405, { Allow: ALLOW });
    await next();
    if (c.res.status !== 405 || c.res.headers.has("Allow")) return;
    const allow = c.req.method === "POST" ? "GET, HEAD" : "POST";
    if (!c.get("path").endsWith(".data") && (c.res.headers.get("Content-Type") ?? "").startsWith("application/json")) {
      c.res = new Response(MESSAGES.methodNotAllowed, { status: 405, headers: { "Content-Type": "text/plain; charset=UTF-8" } });
      // Hono carries the old answer's headers over: its length is not this body's.
      c.res.headers.delete("Content-Length");
    }
    c.res.headers.set("Allow", allow);
  });

  // Refuse a large body before reading it (Content-Length) or as soon as a streamed one passes
  // the limit, so a 50 MB post costs the server no memory.
  const formLimit = bodyLimit({ maxSize: FORM_BODY_LIMIT, onError: (c) => c.text(MESSAGES.tooLarge, 413) });
  const uploadLimit = bodyLimit({
    maxSize: entry.MAX_UPLOAD_BYTES + MULTIPART_FRAMING,
    onError: (c) => c.json({ error: MESSAGES.photoTooLarge }, 413),
  });
  const documentLimit = bodyLimit({ maxSize: DOCUMENT_UPLOAD_BYTES + MULTIPART_FRAMING, onError: (c) => c.text("Arquivo maior que 10 MB", 413) });
  app.use("*", (c, next) =>
    UPLOAD_PATH.test(c.get("path")) ? uploadLimit(c, next) : DOCUMENT_UPLOAD_PATH.test(c.get("path")) ? documentLimit(c, next) : formLimit(c, next),
  );

  // Fingerprinted build assets: a year (static-files.ts).
  app.use("/assets/*", buildAssets(clientRoot));
  // The CRM's service worker and offline page (decision 029): revalidated on every fetch, so a
  // new version reaches browsers at once. The worker at /crm/sw.js may claim /crm itself (the
  // dashboard), one level above its folder.
  app.use("/crm/*", async (c, next) => {
    await next();
    if (!CRM_PUBLIC_FILES.has(c.get("path")) || c.res.status !== 200) return;
    if (c.get("path") === "/crm/sw.js") c.res.headers.set("Service-Worker-Allowed", "/crm");
    if (c.get("path") !== "/crm/manifest.webmanifest") c.res.headers.set("Cache-Control", "no-cache");
  });
  // Other public files (favicon, preview image, app icons): an hour.
  app.use("*", publicFiles(clientRoot));

  // Any other spelling of a page (/SOBRE, /s%6Fbre, /sobre/) goes to its canonical path, so that
  // browsers, search engines and the page cache know each page by one address. Static files were
  // served above as named; `.data` requests (the client router's) and writes are answered for
  // the canonical path instead, as React Router would match them anyway.
  app.use("*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const url = new URL(c.req.url);
    if (url.pathname === c.get("path") || url.pathname.endsWith(".data")) return next();
    return c.redirect(`${c.get("path")}${url.search}`, 301);
  });

  // --- Property page views (issue 12) ---------------------------------------------------------
  // Counted here, around the page cache, which answers most visitors without running a loader.
  // What counts is decided by propertyViewOf (request-rules.ts); the sums are batched in memory by
  // the app (features/reports/views.server.ts), so a page view costs no database write.
  app.use("*", async (c, next) => {
    await next();
    const id = propertyViewOf(c.req.method, c.get("path"), c.res.status, c.req.raw.headers);
    if (id) entry.countPropertyView?.(id);
  });
  // --- end of property page views ---------------------------------------------------------------

  const render = (c: Context<Env>, request: Request) => {
    const { address: clientIp, ignoredForwardedFor } = resolveClientIp(c.req.raw.headers, c.env?.incoming?.socket?.remoteAddress, proxyPolicy);
    if (ignoredForwardedFor && !toldOfUntrustedPeer) {
      toldOfUntrustedPeer = true;
      // Once: behind a proxy missing from the list, every visitor would share its address.
      log.warn("X-Forwarded-For ignored: the connection did not come from TRUSTED_PROXIES (list your proxy's address there)");
    }
    // Overwrite whatever the client sent: downstream code (better-auth's limits) trusts this header.
    request.headers.set("x-client-ip", clientIp);
    log.debug({ reqId: c.get("requestId"), path: loggedPath(c.get("path")) }, "app render");
    // The app marks the context when the database could not answer: 503 + Retry-After, not 500.
    const context = { cspNonce: c.get("cspNonce"), clientIp, databaseUnavailable: false };
    return handler(request, context).then((response) => unavailableAnswer(response, context.databaseUnavailable));
  };

  app.all("*", async (c) => {
    const request = atPublicOrigin(c.req.raw, publicOrigin, c.get("path"));
    if (cache && cacheListening && isCacheable(c.req.method, c.get("path"), c.req.header("cookie"))) {
      const url = new URL(request.url);
      const search = normalizeSearch(url.pathname, url.searchParams);
      const key = `${url.pathname}${search}`;
      const result = await cache.get(key, url.pathname, async () => {
        // The page of the normalised address, for nobody in particular: no cookie reaches it,
        // and one visitor leaving does not abort the render others may be waiting for.
        const headers = new Headers(request.headers);
        headers.delete("cookie");
        const anonymous = new Request(`${url.origin}${key}`, { method: "GET", headers });
        const csp = (scriptHashes: string[]) => entry.securityHeaders({ scriptHashes, https, path: url.pathname })["Content-Security-Policy"];
        return renderOutcome(await render(c, anonymous), c.get("cspNonce"), csp);
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
    if (cache && c.req.method !== "GET" && c.req.method !== "HEAD" && /^\/crm(\/|\.data|$)/.test(c.get("path"))) cache.invalidate();
    return response;
  });

  return app;
}

/**
 * The request as the visitor addressed it: behind a TLS proxy the server sees
 * http://127.0.0.1:3000/…, while the browser, React Router's CSRF check and better-auth know the
 * site as https://www.example.com. The origin changes, and the path becomes its canonical
 * spelling when given (the one the server's rules judged); query, method, headers and body stay.
 * (Concatenation, not new URL(path, base): a path such as //evil.example would be read as
 * another host.)
 */
export function atPublicOrigin(request: Request, publicOrigin: string, pathname?: string): Request {
  const incoming = new URL(request.url);
  return new Request(`${publicOrigin}${pathname ?? incoming.pathname}${incoming.search}`, {
    method: request.method,
    headers: new Headers(request.headers),
    body: request.body,
    signal: request.signal,
    ...(request.body ? { duplex: "half" } : {}),
  } as RequestInit);
}
