import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { properties } from "~/db/schema";
import { LIST_QUERY_PARAMS } from "~/features/properties/filters";
import { onPublicDataChange } from "~/entry.server";
import {
  type CachedEntry,
  PageCache,
  createEntry,
  etagMatches,
  normalizeSearch,
  preferredEncoding,
  shareablePage,
} from "../../server/page-cache";
import { insertLead, insertProperty } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The public page cache's own rules (server/page-cache.ts), and its invalidation by the real
 * change events of a running runtime. What the HTTP server does with it (cookies, headers, CSP,
 * CRM edits seen on the next request, single flight in a real server) is in
 * tests/e2e/cache.spec.ts, on the production build.
 */

/** An entry of a known size (no compression: these tests are about the bookkeeping). */
const page = async (bytes: number, status = 200): Promise<CachedEntry> => {
  const body = crypto.randomBytes(16);
  return { status, headers: [], bodies: { identity: body, br: body, gzip: body }, etag: `W/"${body.toString("hex")}"`, bytes };
};

describe("page cache", () => {
  it("keys a URL by the parameters its page reads, in a fixed order", () => {
    const key = (url: string) => {
      const parsed = new URL(url, "http://x");
      return `${parsed.pathname}${normalizeSearch(parsed.pathname, parsed.searchParams)}`;
    };
    expect(key("/imoveis?tipo=casa&finalidade=venda")).toBe(key("/imoveis?finalidade=venda&tipo=casa"));
    expect(key("/imoveis?utm_source=whatsapp&tipo=casa&bairro=")).toBe("/imoveis?tipo=casa");
    expect(key("/imoveis?tipo=casa&tipo=apartamento")).toBe("/imoveis?tipo=casa");
    expect(key("/imoveis?pagina=2")).toBe("/imoveis?pagina=2");
    expect(key("/imoveis?codigo=AP-1&x=1")).toBe("/imoveis?codigo=AP-1");
    expect(key("/sobre?x=1")).toBe("/sobre");
    expect(key("/imoveis/abc?tipo=casa")).toBe("/imoveis/abc");
    // .data requests keep which loaders React Router asked for.
    expect(key("/imoveis.data?_routes=routes%2Fproperties&tipo=casa&z=1")).toBe("/imoveis.data?_routes=routes%2Fproperties&tipo=casa");
    expect(key("/_root.data?x=1")).toBe("/_root.data");
  });

  it("keys every filter /imoveis reads, and every feature of a repeated carac, sorted (decision 017)", () => {
    const key = (url: string) => {
      const parsed = new URL(url, "http://x");
      return `${parsed.pathname}${normalizeSearch(parsed.pathname, parsed.searchParams)}`;
    };
    // Each parameter the list reads makes its own page in the cache.
    for (const name of LIST_QUERY_PARAMS) {
      expect(key(`/imoveis?${name}=1`), name).toBe(`/imoveis?${name}=1`);
    }
    expect(key("/imoveis?carac=piscina&carac=academia")).toBe("/imoveis?carac=academia&carac=piscina");
    expect(key("/imoveis?carac=academia&carac=piscina")).toBe(key("/imoveis?carac=piscina&carac=academia"));
    expect(key("/imoveis?carac=piscina")).not.toBe(key("/imoveis?carac=piscina&carac=academia"));
    expect(key("/imoveis?carac=piscina&carac=piscina&carac=")).toBe("/imoveis?carac=piscina");
    expect(key("/imoveis?vendidos=1&suites=2&utm=x&area_min=50&area_max=90&condominio_max=800&financiamento=1&mobiliado=1")).toBe(
      "/imoveis?area_max=90&area_min=50&condominio_max=800&financiamento=1&mobiliado=1&suites=2&vendidos=1",
    );
  });

  it("answers in the best encoding the client takes", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip, br;q=0")).toBe("gzip");
    expect(preferredEncoding("identity")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
    expect(etagMatches('W/"abc", W/"def"', 'W/"def"')).toBe(true);
    expect(etagMatches('"def"', 'W/"def"')).toBe(true);
    expect(etagMatches('W/"abc"', 'W/"def"')).toBe(false);
  });

  it("stores compressed copies that decompress to the page", async () => {
    const body = Buffer.from("<p>Casa no Tirol</p>".repeat(200));
    const entry = await createEntry(200, [], body);
    const zlib = await import("node:zlib");
    expect(zlib.brotliDecompressSync(entry.bodies.br).equals(body)).toBe(true);
    expect(zlib.gunzipSync(entry.bodies.gzip).equals(body)).toBe(true);
    expect(entry.bodies.br.length).toBeLessThan(body.length / 10);
    expect(entry.etag).toMatch(/^W\/".+"$/);
  });

  it("drops the request's nonce and hashes exactly the inline scripts that carried it", () => {
    const nonce = "bm9uY2Utb2YtdGhlLXJlcXVlc3Q=";
    const html = [
      `<link rel="modulepreload" href="/assets/a.js" nonce="${nonce}"/>`,
      `<script nonce="${nonce}">window.__ctx = 1;</script>`,
      `<script type="module" nonce="${nonce}">import "/assets/a.js";</script>`,
      `<script type="module" src="/assets/b.js" nonce="${nonce}"></script>`,
      `<script type="application/ld+json">{"@type":"House"}</script>`,
      // Markup that reached the page without the nonce stays blocked: no hash for it.
      `<script>alert("injetado")</script>`,
    ].join("");
    const shared = shareablePage(html, nonce)!;
    expect(shared.html).not.toContain(nonce);
    expect(shared.html).not.toContain("nonce=");
    const sha = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;
    expect(shared.scriptHashes.sort()).toEqual([sha("window.__ctx = 1;"), sha('import "/assets/a.js";')].sort());
    // The nonce anywhere else (say, serialised into data): not shareable.
    expect(shareablePage(`${html}<p>${nonce}</p>`, nonce)).toBeNull();
  });

  it("10,000 random query strings and paths leave it within its bounds", async () => {
    const cache = new PageCache({ maxBytes: 2 * 1024 * 1024, maxVariantsPerPath: 64, maxNotFound: 64 });
    const names = ["tipo", "finalidade", "bairro", "quartos", "vagas", "preco_min", "preco_max", "pagina", "utm", "x"];
    let renders = 0;
    for (let i = 0; i < 10_000; i++) {
      const search = new URLSearchParams();
      for (let j = 0; j < 3; j++) search.set(names[crypto.randomInt(names.length)], crypto.randomBytes(4).toString("hex"));
      // Every tenth: an unknown path (a 404 of its own).
      const pathname = i % 10 === 0 ? `/${crypto.randomBytes(6).toString("hex")}` : "/imoveis";
      const key = `${pathname}${normalizeSearch(pathname, search)}`;
      await cache.get(key, pathname, async () => {
        renders++;
        return { entry: await page(4096, pathname === "/imoveis" ? 200 : 404) };
      });
      const stats = cache.stats();
      expect(stats.bytes).toBeLessThanOrEqual(cache.maxBytes);
      expect(stats.maxVariantsOfOnePath).toBeLessThanOrEqual(64);
      expect(stats.notFound).toBeLessThanOrEqual(64);
    }
    expect(renders).toBeGreaterThan(9_000);
    expect(cache.stats().entries).toBeLessThanOrEqual(64 + 64);
  });

  it("evicts the least recently used entries to stay under its bytes", async () => {
    const cache = new PageCache({ maxBytes: 100_000 });
    const render = (size: number) => async () => ({ entry: await page(size) });
    await cache.get("/a", "/a", render(25_000));
    await cache.get("/b", "/b", render(25_000));
    await cache.get("/a", "/a", render(25_000)); // /a used again: /b is now the oldest
    for (const key of ["/c", "/d", "/e"]) await cache.get(key, key, render(25_000));
    expect(cache.stats().bytes).toBeLessThanOrEqual(100_000);
    expect((await cache.get("/a", "/a", render(25_000))).state).toBe("hit");
    expect((await cache.get("/b", "/b", render(25_000))).state).toBe("miss");
  });

  it("renders once for concurrent misses of one key (single flight)", async () => {
    const cache = new PageCache({ maxBytes: 1024 * 1024 });
    let renders = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const render = async () => {
      renders++;
      await gate;
      return { entry: await page(1000) };
    };
    const results = Array.from({ length: 25 }, () => cache.get("/", "/", render));
    release();
    const settled = await Promise.all(results);
    expect(renders).toBe(1);
    expect(settled.filter((result) => result.state === "miss")).toHaveLength(1);
    expect(settled.filter((result) => result.state === "shared")).toHaveLength(24);
    const entries = new Set(settled.map((result) => ("entry" in result ? result.entry : null)));
    expect(entries.size).toBe(1);
  });

  it("never stores a render that started before a change", async () => {
    const cache = new PageCache({ maxBytes: 1024 * 1024 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let renders = 0;
    const slow = async () => {
      renders++;
      await gate;
      return { entry: await page(1000) };
    };
    const before = cache.get("/", "/", slow);
    await new Promise((resolve) => setTimeout(resolve, 0));
    cache.invalidate(); // the change is heard while the old render runs
    // A request after the change does not join the old render.
    const after = cache.get("/", "/", slow);
    release();
    expect((await before).state).toBe("miss");
    expect((await after).state).toBe("miss");
    expect(renders).toBe(2);
    expect(cache.stats().entries).toBe(1);
    // The stored one is the render that began after the change.
    const stored = await cache.get("/", "/", slow);
    expect(stored.state).toBe("hit");
    expect((stored as { entry: CachedEntry }).entry).toBe((await after as { entry: CachedEntry }).entry);
  });

  it("keeps nothing that was not a cacheable answer, and lets waiters render for themselves", async () => {
    const cache = new PageCache({ maxBytes: 1024 * 1024 });
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { response: new Response("erro", { status: 500 }) };
    };
    const results = await Promise.all([cache.get("/", "/", render), cache.get("/", "/", render)]);
    expect(results.map((result) => result.state)).toEqual(["bypass", "bypass"]);
    expect(renders).toBe(2);
    expect(cache.stats().entries).toBe(0);
  });
});

describe.each(DATABASE_KINDS)("page cache invalidation on %s", (kind) => {
  let test: TestRuntime;
  let cache: PageCache;
  let unsubscribe: () => void;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    cache = new PageCache({ maxBytes: 1024 * 1024 });
    unsubscribe = await onPublicDataChange(() => cache.invalidate());
  });
  afterAll(async () => {
    unsubscribe?.();
    await test?.stop();
  });

  const fill = () => cache.get("/", "/", async () => ({ entry: await page(100) }));
  const waitForGeneration = async (above: number) => {
    const started = Date.now();
    while (cache.generation <= above) {
      if (Date.now() - started > 5_000) throw new Error("no change event reached the cache");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it("a listing changed through the database drops every entry", async () => {
    const property = await insertProperty(test.runtime);
    await waitForGeneration(0);
    await fill();
    const generation = cache.generation;
    expect(cache.stats().entries).toBe(1);
    await test.runtime.db.update(properties).set({ title: "Título trocado direto no banco" }).where(eq(properties.id, property.id));
    await waitForGeneration(generation);
    expect(cache.stats().entries).toBe(0);
  });

  it.runIf(kind === "postgres")("a change by another connection (another process, a SQL console) drops every entry", async () => {
    const property = await insertProperty(test.runtime);
    await waitForGeneration(cache.generation - 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fill();
    const generation = cache.generation;
    const client = new pg.Client({ connectionString: test.runtime.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query("update properties set price = price + 1 where id = $1", [property.id]);
    } finally {
      await client.end();
    }
    await waitForGeneration(generation);
    expect(cache.stats().entries).toBe(0);
  });

  it("a new lead (never on a public page) keeps the entries", async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await fill();
    const generation = cache.generation;
    await insertLead(test.runtime);
    // Give the notification time to arrive: it must not clear anything.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(cache.generation).toBe(generation);
    expect(cache.stats().entries).toBe(1);
  });
});

describe("what the page cache may hold", () => {
  it("only anonymous GETs of public pages: never the CRM, sign-in, resources, a signed-in request or route discovery", async () => {
    const { isCacheable } = await import("../../server/app");
    expect(isCacheable("GET", "/", undefined)).toBe(true);
    expect(isCacheable("GET", "/imoveis.data", undefined)).toBe(true);
    expect(isCacheable("POST", "/contato", undefined)).toBe(false);
    expect(isCacheable("GET", "/crm/leads", undefined)).toBe(false);
    expect(isCacheable("GET", "/auth", undefined)).toBe(false);
    expect(isCacheable("GET", "/api/events", undefined)).toBe(false);
    expect(isCacheable("GET", "/", "better-auth.session_token=abc")).toBe(false);
    expect(isCacheable("GET", "/", "__Secure-better-auth.session_token=abc")).toBe(false);
    // React Router's lazy route discovery answers per `p`/`version`; a page key would drop both.
    expect(isCacheable("GET", "/__manifest", undefined)).toBe(false);
    // One browser's favourites (?ids=…), which a page key would drop.
    expect(isCacheable("GET", "/favoritos", undefined)).toBe(false);
    expect(isCacheable("GET", "/favoritos.data", undefined)).toBe(false);
  });
});
