import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { properties } from "~/db/schema";
import { FAVORITES_INVALID } from "~/features/favorites/favorites";
import { CODIGO_TOO_LONG } from "~/features/properties/filters";
import { findPublicPropertyIdByCodigo, listPublicPropertiesByIds, listSimilarProperties } from "~/features/properties/public-queries.server";
import { loader as favoritesLoader } from "~/routes/favorites";
import { loader as listLoader } from "~/routes/properties";
import { loader as propertyLoader } from "~/routes/property";
import { insertProperty, makeRequest, settle } from "../helpers/factories";
import { planNodes, recordingDb, type Recorded } from "../helpers/query-plans";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * What visitors expect of a property site (issue 13, items 3–6), against the real database:
 * the 'Código' search, the favourites page's loader, and 'Imóveis semelhantes' — its order, what
 * it leaves out, and (at the scale of an agency) that it reads through its indexes.
 */

const PARTNER = "Parceiro Confidencial Ltda";
const context = { cspNonce: "n", clientIp: "198.51.100.7" };
type DataResult<T> = { data: T; init: { status: number } };
const unwrap = <T>(result: unknown): { data: T; status: number } =>
  result && typeof result === "object" && "init" in result
    ? { data: (result as DataResult<T>).data, status: (result as DataResult<T>).init.status }
    : { data: result as T, status: 200 };

describe.each(DATABASE_KINDS)("visitor features on %s", (kind) => {
  let test: TestRuntime;
  beforeAll(async () => {
    test = await startTestRuntime(kind);
  });
  afterAll(async () => {
    await test?.stop();
  });

  describe("'Imóveis semelhantes'", () => {
    // One home in Petrópolis for sale at R$ 800.000, and the listings around it.
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      const rows = {
        self: { neighborhood: "Petrópolis", price: 800_000 },
        // Same neighbourhood (written differently: the comparison ignores case and accents).
        nbFar: { neighborhood: "PETROPOLIS", price: 2_000_000 },
        nbNear: { neighborhood: "petrópolis", price: 790_000 },
        // Elsewhere, by distance from 800.000: 805.000 (5.000), 780.000 (20.000), 850.000 (50.000).
        near1: { neighborhood: "Tirol", price: 805_000 },
        near2: { neighborhood: "Lagoa Nova", price: 780_000 },
        near3: { neighborhood: "Tirol", price: 850_000 },
        // Never similar: another type, another purpose, not available.
        apartment: { neighborhood: "Petrópolis", price: 800_000, type: "apartamento" },
        forRent: { neighborhood: "Petrópolis", price: 800_000, purpose: "aluguel" },
        sold: { neighborhood: "Petrópolis", price: 800_000, status: "vendido" },
        negotiating: { neighborhood: "Petrópolis", price: 801_000, status: "em_negociacao" },
        rented: { neighborhood: "Tirol", price: 800_500, status: "alugado" },
      } as const;
      for (const [key, values] of Object.entries(rows)) {
        const row = await insertProperty(test.runtime, { type: "casa", purpose: "venda", ...values, broker_partner: PARTNER } as never);
        ids[key] = row.id;
      }
    });
    const similarTo = async (key: string) => {
      const [row] = await test.runtime.db.select().from(properties).where(eq(properties.id, ids[key]));
      return (await listSimilarProperties(test.runtime.db, row)).map((card) => card.id);
    };
    const idsOf = (...keys: string[]) => keys.map((key) => ids[key]);

    it("gives the same neighbourhood first (nearest price first), then the nearest in price; three at most", async () => {
      expect(await similarTo("self")).toEqual(idsOf("nbNear", "nbFar", "near1"));
    });

    it("fills from other neighbourhoods by distance, above or below the price", async () => {
      // From Tirol at 805.000: Tirol's 850.000 first, then 800.000 and 790.000 (both Petrópolis).
      expect(await similarTo("near1")).toEqual(idsOf("near3", "self", "nbNear"));
      // Lagoa Nova has no other listing: the three nearest anywhere (790.000, 800.000, 805.000).
      expect(await similarTo("near2")).toEqual(idsOf("nbNear", "self", "near1"));
    });

    it("is only available listings of the same type and purpose, never the listing itself", async () => {
      const all = new Set([...(await similarTo("self")), ...(await similarTo("near1")), ...(await similarTo("near2")), ...(await similarTo("nbFar"))]);
      for (const key of ["apartment", "forRent", "sold", "negotiating", "rented"]) expect(all.has(ids[key])).toBe(false);
      expect(await similarTo("self")).not.toContain(ids.self);
      // An apartment for sale has no other apartment for sale: nothing to suggest.
      expect(await similarTo("apartment")).toEqual([]);
    });

    it("breaks ties of distance by id, the same on every request", async () => {
      const base = { type: "terreno", purpose: "aluguel", neighborhood: "Cotovelo" } as const;
      const center = await insertProperty(test.runtime, { ...base, price: 1000 });
      const twins = [];
      for (const price of [900, 1100, 900, 1100]) twins.push((await insertProperty(test.runtime, { ...base, price })).id);
      const [row] = await test.runtime.db.select().from(properties).where(eq(properties.id, center.id));
      const similar = (await listSimilarProperties(test.runtime.db, row)).map((card) => card.id);
      expect(similar).toEqual([...twins].sort().slice(0, 3));
    });

    it("is on the property page, as cards without the partner's name", async () => {
      const result = await propertyLoader({ request: makeRequest(`/imoveis/${ids.self}`), params: { id: ids.self }, context } as never);
      const { data, status } = unwrap<{ similar: { id: string }[] }>(result);
      expect(status).toBe(200);
      expect(data.similar.map((card) => card.id)).toEqual(idsOf("nbNear", "nbFar", "near1"));
      expect(JSON.stringify(data)).not.toContain(PARTNER);
    });
  });

  describe("'Código' search", () => {
    let target: { id: string };
    beforeAll(async () => {
      target = await insertProperty(test.runtime, { codigo: "CS-NP-404", title: "Casa para a busca por código" });
      await insertProperty(test.runtime, { codigo: "CS-NP-405", title: "Outra casa para a busca" });
      await insertProperty(test.runtime, { codigo: "AP_100%", title: "Código com curingas" });
    });
    const list = (query: string) => settle(() => listLoader({ request: makeRequest(`/imoveis?${query}`), params: {}, context } as never));

    it("opens the listing whose code it is, ignoring case and spaces around it (302)", async () => {
      for (const code of ["CS-NP-404", "cs-np-404", "  Cs-Np-404  "]) {
        const result = await list(new URLSearchParams({ codigo: code }).toString());
        expect(result).toBeInstanceOf(Response);
        expect((result as Response).status).toBe(302);
        expect((result as Response).headers.get("Location")).toBe(`/imoveis/${target.id}`);
      }
      expect(await findPublicPropertyIdByCodigo(test.runtime.db, "cs-np-404")).toBe(target.id);
      expect(await findPublicPropertyIdByCodigo(test.runtime.db, "   ")).toBeNull();
    });

    it("filters the list by part of a code otherwise, with % and _ taken literally", async () => {
      const codes = async (query: string) => {
        const result = (await list(query)) as { properties: { codigo: string }[]; total: number };
        return result.properties.map((card) => card.codigo).sort();
      };
      expect(await codes("codigo=cs-np")).toEqual(["CS-NP-404", "CS-NP-405"]);
      expect(await codes("codigo=np-40")).toEqual(["CS-NP-404", "CS-NP-405"]);
      expect(await codes("codigo=_100%25")).toEqual(["AP_100%"]);
      expect(await codes("codigo=P%25")).toEqual([]);
      expect(await codes("codigo=cs-np&tipo=apartamento")).toEqual([]);
    });

    it("finds nothing for an unknown code and says so with the code", async () => {
      const result = (await list("codigo=ZZ-999")) as { total: number; filters: { codigo: string }; codigoError: string | null };
      expect(result.total).toBe(0);
      expect(result.filters.codigo).toBe("ZZ-999");
      expect(result.codigoError).toBeNull();
    });

    it("answers a code longer than any with 400 and a clear message on the page, never a 500", async () => {
      const { data: result, status } = unwrap<{ total: number; codigoError: string }>(await list(`codigo=${"X".repeat(51)}`));
      expect(status).toBe(400);
      expect(result.total).toBe(0);
      expect(result.codigoError).toBe(CODIGO_TOO_LONG);
      // Control characters and quotes are text, not SQL.
      const odd = (await list("codigo=%00'%3B%20drop%20table%20properties%3B--")) as { total: number };
      expect(odd.total).toBe(0);
    });
  });

  describe("/favoritos", () => {
    const favorites = async (query: string) =>
      unwrap<{ properties: { id: string }[] | null; error: string | null }>(
        await favoritesLoader({ request: makeRequest(`/favoritos${query}`), params: {}, context } as never),
      );

    it("without ids is the page's shell: the browser asks with its ids once hydrated", async () => {
      expect(await favorites("")).toEqual({ status: 200, data: { properties: null, error: null } });
    });

    it("gives the cards of the ids in their order, drops listings no longer on the site, and never the partner", async () => {
      const first = await insertProperty(test.runtime, { broker_partner: PARTNER });
      const second = await insertProperty(test.runtime, { status: "vendido" });
      const removed = await insertProperty(test.runtime);
      await test.runtime.db.delete(properties).where(eq(properties.id, removed.id));
      const unknown = crypto.randomUUID();
      const result = await favorites(`?ids=${second.id},${unknown},${removed.id},${first.id.toUpperCase()}`);
      expect(result.status).toBe(200);
      expect(result.data.properties!.map((card) => card.id)).toEqual([second.id, first.id]);
      expect(JSON.stringify(result.data)).not.toContain(PARTNER);
      expect(await favorites("?ids=")).toEqual({ status: 200, data: { properties: [], error: null } });
      expect(await listPublicPropertiesByIds(test.runtime.db, [])).toEqual([]);
    });

    it("answers 400 with a clear message to ids that are not listing ids or too many, never 500", async () => {
      const many = Array.from({ length: 51 }, () => crypto.randomUUID()).join(",");
      for (const query of ["?ids=1,2,3", "?ids=abc", `?ids=${encodeURIComponent("'; drop table properties;--")}`, `?ids=${many}`, `?ids=${"a".repeat(5000)}`]) {
        const result = await favorites(query);
        expect(result.status, query).toBe(400);
        expect(result.data).toEqual({ properties: null, error: FAVORITES_INVALID });
      }
    });
  });
});

/** The plans of the new queries at the scale of an agency: each reads through its own index. */
describe.each(DATABASE_KINDS)("visitor queries at scale (%s)", (kind) => {
  let test: TestRuntime;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    const run = (sql: string) => (test.kind === "pglite" ? test.runtime.database.pglite!.exec(sql) : test.runtime.database.pool!.query(sql));
    await run(`
      insert into properties (codigo, title, description, type, purpose, status, price, neighborhood, city)
      select 'P' || g, 'Imóvel de teste número ' || g, 'Descrição do imóvel de teste ' || g || ', com varanda.',
             (array['casa','apartamento','terreno','ponto_comercial'])[1 + g % 4], (array['venda','aluguel'])[1 + g % 3 % 2],
             (array['disponivel','vendido','alugado','em_negociacao'])[1 + g % 7 % 4], (g % 600) * 10000,
             case when g % 100 = 0 then 'Petrópolis' else 'Bairro ' || (g % 50) end, 'Natal'
      from generate_series(1, 10000) g`);
    await run("vacuum analyze properties");
  }, 180_000);
  afterAll(async () => {
    await test?.stop();
  });

  async function plansOf(read: (db: Database) => Promise<unknown>) {
    const recorded: Recorded[] = [];
    await read(recordingDb(test, recorded));
    expect(recorded).toHaveLength(1);
    const nodes = await planNodes(test, recorded[0]);
    const describe = JSON.stringify(nodes.map((node) => [node["Node Type"], node["Relation Name"], node["Index Name"]]));
    expect(nodes.filter((node) => node["Node Type"] === "Seq Scan" && node["Relation Name"] === "properties"), describe).toEqual([]);
    return Object.assign(new Set(nodes.map((node) => node["Index Name"]).filter(Boolean)), { nodes });
  }

  it("'Imóveis semelhantes' walks its two indexes, never the table", async () => {
    const property = { id: crypto.randomUUID(), type: "casa", purpose: "venda", neighborhood: "Petrópolis", price: 3_000_000 } as const;
    const indexes = await plansOf((db) => listSimilarProperties(db, property));
    expect(new Set(indexes)).toEqual(new Set(["properties_similar_idx", "properties_similar_neighborhood_idx"]));
    // Each walk stops after three rows in price order: no sort of every listing of the type.
    expect(indexes.nodes.filter((node) => node["Node Type"] === "Sort")).toEqual([]);
    expect(await listSimilarProperties(test.runtime.db, property)).toHaveLength(3);
  });

  it("the 'Código' search reads the unique index (exact) and the trigram index (part of a code)", async () => {
    expect(new Set(await plansOf((db) => findPublicPropertyIdByCodigo(db, "p4242")))).toEqual(new Set(["properties_codigo_unique"]));
    const { listPublicPropertiesPage } = await import("~/features/properties/public-queries.server");
    const { DEFAULT_FILTERS } = await import("~/features/properties/filters");
    const recorded: Recorded[] = [];
    await listPublicPropertiesPage(recordingDb(test, recorded), { ...DEFAULT_FILTERS, codigo: "P424" }, 1);
    for (const statement of recorded) {
      const nodes = await planNodes(test, statement);
      expect(nodes.some((node) => node["Index Name"] === "properties_codigo_search_idx"), statement.sql).toBe(true);
    }
  });

  it("/favoritos reads 50 listings by id through an index", async () => {
    const [{ id }] = await test.runtime.db.select({ id: properties.id }).from(properties).limit(1);
    const ids = [id, ...Array.from({ length: 49 }, () => crypto.randomUUID())];
    // The primary key, or (PostgreSQL 18's skip scan, PGlite) another index that ends with id.
    expect((await plansOf((db) => listPublicPropertiesByIds(db, ids))).size).toBeGreaterThan(0);
  });
});
