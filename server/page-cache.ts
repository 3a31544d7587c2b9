import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * The public response cache (docs/decisions/006-public-page-cache.md): anonymous GETs of the
 * public pages and of their `.data` requests, kept in memory between changes. This module knows
 * nothing of HTTP frameworks; server/app.ts decides what may be cached and serves the entries.
 *
 * - Entries are compressed once (brotli, gzip) and keep their identity body, with a weak ETag
 *   (the same content under every encoding).
 * - Bounded by total bytes (least recently used goes first), by query-string variants per path
 *   and by the number of distinct 404 answers, so random URLs cannot grow it past its bound.
 * - Concurrent misses for one key render once (single flight).
 * - `invalidate()` (a change event) drops everything and bumps a generation: a render that
 *   started before the change is still answered to whoever asked for it, but never stored.
 */

export type Encoding = "br" | "gzip" | "identity";

export type CachedEntry = {
  status: number;
  /** Response headers to send with every copy (Content-Type, CSP with the scripts' hashes, ...). */
  headers: [string, string][];
  bodies: Record<Encoding, Buffer>;
  etag: string;
  bytes: number;
};

export type PageCacheOptions = {
  maxBytes: number;
  /** Distinct query strings kept per path (after normalisation). */
  maxVariantsPerPath?: number;
  /** Distinct 404 answers kept (any unknown path is a 404). */
  maxNotFound?: number;
};

/** What a render gave: an entry to keep and serve, or a response that must not be kept. */
export type RenderOutcome = { entry: CachedEntry } | { response: Response };

export type CacheResult = RenderOutcome & { state: "hit" | "miss" | "shared" | "bypass" };

/** Key bookkeeping overhead (Map slots, header strings) counted per entry. */
const ENTRY_OVERHEAD = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export class PageCache {
  private readonly entries = new Map<string, { entry: CachedEntry; path: string }>();
  private readonly variants = new Map<string, Set<string>>();
  private readonly notFound = new Set<string>();
  private readonly flights = new Map<string, Promise<CachedEntry | null>>();
  private totalBytes = 0;
  private generationCounter = 0;
  readonly maxBytes: number;
  private readonly maxVariantsPerPath: number;
  private readonly maxNotFound: number;

  constructor(options: PageCacheOptions) {
    this.maxBytes = options.maxBytes;
    this.maxVariantsPerPath = options.maxVariantsPerPath ?? 64;
    this.maxNotFound = options.maxNotFound ?? 64;
  }

  get generation(): number {
    return this.generationCounter;
  }

  stats() {
    let variants = 0;
    for (const set of this.variants.values()) variants = Math.max(variants, set.size);
    return { entries: this.entries.size, bytes: this.totalBytes, maxVariantsOfOnePath: variants, notFound: this.notFound.size };
  }

  /** Drops every entry; renders in flight finish for their callers but are not stored. */
  invalidate() {
    this.generationCounter++;
    this.entries.clear();
    this.variants.clear();
    this.notFound.clear();
    this.flights.clear();
    this.totalBytes = 0;
  }

  /** The stored entry for `key`, if any, without rendering (a use: it moves to the end). */
  peek(key: string): CachedEntry | undefined {
    const found = this.entries.get(key);
    if (!found) return undefined;
    // Least recently used goes first: move to the end.
    this.entries.delete(key);
    this.entries.set(key, found);
    return found.entry;
  }

  /**
   * The entry for `key` (its path is `path`), rendering it when missing. Whoever arrives while a
   * render for the same key runs waits for it instead of rendering again; if that render gives
   * nothing cacheable (an error, a cookie), each waiter renders for itself.
   */
  async get(key: string, path: string, render: () => Promise<RenderOutcome>): Promise<CacheResult> {
    const found = this.peek(key);
    if (found) return { entry: found, state: "hit" };
    const flight = this.flights.get(key);
    if (flight) {
      const entry = await flight.catch(() => null);
      if (entry) return { entry, state: "shared" };
      return { ...(await render()), state: "bypass" };
    }

    const generation = this.generationCounter;
    let settle!: (entry: CachedEntry | null) => void;
    const promise = new Promise<CachedEntry | null>((resolve) => (settle = resolve));
    this.flights.set(key, promise);
    try {
      const outcome = await render();
      const entry = "entry" in outcome ? outcome.entry : null;
      // A change heard during the render: the answer is still right for those who asked before
      // it, but the next request must render again.
      if (entry && generation === this.generationCounter) this.store(key, path, entry);
      settle(entry);
      return { ...outcome, state: entry ? "miss" : "bypass" };
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      if (this.flights.get(key) === promise) this.flights.delete(key);
    }
  }

  private store(key: string, path: string, entry: CachedEntry) {
    // One huge page may not push out everything else.
    if (entry.bytes > this.maxBytes / 4) return;
    const pathVariants = this.variants.get(path);
    if (!pathVariants?.has(key) && (pathVariants?.size ?? 0) >= this.maxVariantsPerPath) return;
    if (entry.status === 404 && !this.notFound.has(key) && this.notFound.size >= this.maxNotFound) return;
    this.remove(key);
    while (this.totalBytes + entry.bytes > this.maxBytes && this.entries.size > 0) {
      this.remove(this.entries.keys().next().value!);
    }
    this.entries.set(key, { entry, path });
    this.totalBytes += entry.bytes;
    if (pathVariants) pathVariants.add(key);
    else this.variants.set(path, new Set([key]));
    if (entry.status === 404) this.notFound.add(key);
  }

  private remove(key: string) {
    const found = this.entries.get(key);
    if (!found) return;
    this.entries.delete(key);
    this.totalBytes -= found.entry.bytes;
    const pathVariants = this.variants.get(found.path);
    pathVariants?.delete(key);
    if (pathVariants?.size === 0) this.variants.delete(found.path);
    this.notFound.delete(key);
  }
}

/** Compresses a body once for every client: brotli (high quality, it is done once) and gzip. */
export async function createEntry(status: number, headers: [string, string][], body: Buffer): Promise<CachedEntry> {
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
    gzip(body, { level: 9 }),
  ]);
  const etag = `W/"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
  const headerBytes = headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0);
  return {
    status,
    headers,
    bodies: { identity: body, br, gzip: gz },
    etag,
    bytes: body.length + br.length + gz.length + headerBytes + ENTRY_OVERHEAD,
  };
}

/**
 * The encoding to answer with, from Accept-Encoding: brotli, else gzip, else none. An encoding
 * listed with q=0 is refused.
 */
export function preferredEncoding(acceptEncoding: string | undefined | null): Encoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? "").toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) continue;
    if (name) accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip") || accepted.has("*")) return "gzip";
  return "identity";
}

/** Whether an If-None-Match header names this ETag (weak comparison, as for GET). */
export function etagMatches(ifNoneMatch: string | undefined | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const bare = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === bare);
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * Prepares a rendered page to be shared: removes this request's nonce (a shared nonce would be
 * no secret) and returns the sha256 hashes of the inline scripts that carried it, for the
 * entry's CSP. So the hashes allow exactly what the nonce allowed: the scripts React Router and
 * React wrote, never markup that slipped into the page without the nonce. Data blocks (JSON-LD)
 * are not run and need no hash. Null when the nonce still appears somewhere else afterwards:
 * such a page is not cached.
 */
export function shareablePage(html: string, nonce: string): { html: string; scriptHashes: string[] } | null {
  const hashes = new Set<string>();
  const attribute = ` nonce="${nonce}"`;
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const [, attributes, content] = match;
    if (!attributes.includes(attribute) || /\bsrc\s*=/i.test(attributes)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript" && type !== "application/javascript") continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(content, "utf8").digest("base64")}'`);
  }
  const stripped = html.split(attribute).join("");
  if (stripped.includes(nonce)) return null;
  return { html: stripped, scriptHashes: [...hashes] };
}

/** The query parameters each public page reads; any other parameter does not change the page. */
const KNOWN_PARAMS: Record<string, string[]> = {
  "/imoveis": [
    "codigo", "tipo", "finalidade", "bairro", "quartos", "vagas", "preco_min", "preco_max", "pagina",
    // Issue 22 (decision 017).
    "suites", "area_min", "area_max", "condominio_max", "carac", "financiamento", "mobiliado", "vendidos",
    // The 'Mapa' view of the results (issue 22, item 4).
    "visualizacao",
  ],
};

/** Parameters a page reads every value of (`getAll`): all kept, sorted, so their order makes one key. */
const REPEATED_PARAMS = new Set(["carac"]);

/** Headers that belong to one transfer, not to the shared content. */
const UNSHARED_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "date", "set-cookie", "x-request-id"]);

/**
 * A rendered public answer as a cache entry, or as it is when it must not be shared. An HTML page
 * is stored with `csp(scriptHashes)`, its policy by hashes instead of the render's nonce.
 */
export async function renderOutcome(response: Response, nonce: string, csp: (scriptHashes: string[]) => string): Promise<RenderOutcome> {
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
    headers.push(["Content-Security-Policy", csp(page.scriptHashes)]);
  }
  return { entry: await createEntry(response.status, headers, body) };
}

/**
 * The cache key of a public URL: the path, and only the parameters the page reads, in a fixed
 * order, first value each (what `URLSearchParams.get` sees; every value, sorted, of a repeated
 * one), empty ones dropped. `.data`
 * requests keep React Router's `_routes` (which loaders to run) and have their own keys.
 */
export function normalizeSearch(pathname: string, search: URLSearchParams): string {
  const isData = pathname.endsWith(".data");
  const pagePath = isData ? (pathname === "/_root.data" ? "/" : pathname.slice(0, -".data".length)) : pathname;
  const known = [...(KNOWN_PARAMS[pagePath.replace(/\/$/, "") || "/"] ?? []), ...(isData ? ["_routes"] : [])].sort();
  const kept = new URLSearchParams();
  for (const name of known) {
    if (REPEATED_PARAMS.has(name)) {
      for (const value of [...new Set(search.getAll(name))].sort()) if (value !== "") kept.append(name, value);
      continue;
    }
    const value = search.get(name);
    if (value !== null && value !== "") kept.set(name, value);
  }
  const query = kept.toString();
  return query ? `?${query}` : "";
}
