import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, neighbourhood_texts, properties } from "~/db/schema";
import { onPublicDataChange } from "~/entry.server";
import type { NeighbourhoodPageView } from "~/features/neighbourhoods/page-view.server";
import { NEIGHBOURHOOD_TEXT_MAX, NEIGHBOURHOOD_TEXT_MESSAGES } from "~/features/neighbourhoods/text-schema";
import { action as crmAction, loader as crmLoader } from "~/routes/crm-neighbourhoods";
import { loader as pageLoader } from "~/routes/neighbourhood";
import { loader as indexLoader } from "~/routes/neighbourhoods";
import { loader as propertyLoader } from "~/routes/property";
import { loader as sitemapLoader } from "~/routes/sitemap";
import { createSignedInUser, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The neighbourhood pages (issue 22 item 8, decision 021), through their loaders and the CRM's
 * action with real requests: the page lists exactly the neighbourhood's listings on the market as
 * an SQL query written here (its own slug expression) says; counts and price ranges are the
 * database's; the broker's text is validated, saved, audited and shown; the sitemap lists the pages.
 */

const context = { cspNonce: "n", clientIp: "198.51.100.91" };
type PageData = { page: NeighbourhoodPageView | null };
const unwrap = <T>(result: unknown): { data: T; status: number } =>
  result && typeof result === "object" && "init" in result
    ? { data: (result as unknown as { data: T }).data, status: (result as unknown as { init: { status?: number } | null }).init?.status ?? 200 }
    : { data: result as T, status: 200 };

describe.each(DATABASE_KINDS)("neighbourhood pages on %s", (kind) => {
  let test: TestRuntime;
  let corretor: TestUser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    corretor = await createSignedInUser(test.runtime, "corretor");
    const rows = [
      // Ponta Negra, in three spellings: one neighbourhood, one page.
      { key: "apVenda1", type: "apartamento", purpose: "venda", neighborhood: "Ponta Negra", price: 450000 },
      { key: "apVenda2", type: "apartamento", purpose: "venda", neighborhood: "ponta negra ", price: 1200000, featured: true },
      { key: "casaConsulta", type: "casa", purpose: "venda", neighborhood: "PONTA NEGRA", price: 0 },
      { key: "apAluguel", type: "apartamento", purpose: "aluguel", neighborhood: "Ponta Negra", price: 2500 },
      { key: "apNegociacao", type: "apartamento", purpose: "aluguel", neighborhood: "Ponta Negra", price: 4000, status: "em_negociacao" },
      { key: "apVendido", type: "apartamento", purpose: "venda", neighborhood: "Ponta Negra", price: 300000, status: "vendido" },
      { key: "apAlugado", type: "apartamento", purpose: "aluguel", neighborhood: "Ponta Negra", price: 1800, status: "alugado" },
      // A neighbourhood whose name contains another's is not that one.
      { key: "sul", type: "casa", purpose: "venda", neighborhood: "Ponta Negra Sul", price: 700000 },
      { key: "petropolis", type: "casa", purpose: "venda", neighborhood: "Petrópolis", price: 900000 },
      { key: "petropolisSemAcento", type: "casa", purpose: "aluguel", neighborhood: "Petropolis", price: 3000 },
      // Everything in Tirol is sold: no page.
      { key: "tirolVendida", type: "casa", purpose: "venda", neighborhood: "Tirol", price: 200000, status: "vendido" },
    ] as const;
    for (const row of rows) {
      const { key, ...values } = row;
      ids[key] = (await insertProperty(test.runtime, values as never)).id;
    }
  });
  afterAll(async () => {
    await test?.stop();
  });

  // The slug, written in SQL here, independently of the code under test.
  const slugSql = sql`trim(both '-' from regexp_replace(immutable_unaccent(lower(${properties.neighborhood})), '[^a-z0-9]+', '-', 'g'))`;
  const onMarket = sql`${properties.status} in ('disponivel', 'em_negociacao')`;

  async function page(slug: string) {
    return unwrap<PageData>(await pageLoader({ request: makeRequest(`/imoveis/bairro/${encodeURIComponent(slug)}`), params: { slug }, context } as never));
  }

  it("lists exactly the neighbourhood's listings on the market, as an SQL count says", async () => {
    const expected = await test.runtime.db.select({ id: properties.id }).from(properties).where(and(onMarket, sql`${slugSql} = 'ponta-negra'`));
    const { data, status } = await page("ponta-negra");
    expect(status).toBe(200);
    const shown = data.page!.listings.map((listing) => listing.id);
    expect(shown).toHaveLength(expected.length);
    expect(new Set(shown)).toEqual(new Set(expected.map((row) => row.id)));
    expect(shown).toHaveLength(5);
    // Sold and rented listings, and the neighbourhood whose name only contains this one, are not there.
    for (const key of ["apVendido", "apAlugado", "sul"]) expect(shown).not.toContain(ids[key]);
    // The public list's order: featured first.
    expect(shown[0]).toBe(ids.apVenda2);
    expect(data.page!.name).toBe("Ponta Negra");
    expect(data.page!.summary).toBe("5 imóveis: 3 à venda e 2 para alugar");
    // Nothing of the partner's or the address reaches the page's data.
    expect(JSON.stringify(data)).not.toContain("broker_partner");
  });

  it("counts per type and purpose and price ranges equal the database's", async () => {
    const rows = await test.runtime.db
      .select({
        type: properties.type,
        purpose: properties.purpose,
        n: sql<number>`count(*)`.mapWith(Number),
        min: sql<number | null>`min(${properties.price}) filter (where ${properties.price} > 0)`.mapWith(Number),
        max: sql<number | null>`max(${properties.price}) filter (where ${properties.price} > 0)`.mapWith(Number),
      })
      .from(properties)
      .where(and(onMarket, sql`${slugSql} = 'ponta-negra'`))
      .groupBy(properties.type, properties.purpose);
    const { data } = await page("ponta-negra");
    const stats = data.page!.stats;
    expect(stats).toHaveLength(rows.length);
    const byLabel = Object.fromEntries(stats.map((row) => [row.label, row]));
    const sale = rows.find((row) => row.type === "apartamento" && row.purpose === "venda")!;
    expect(byLabel["Apartamentos à venda"]).toEqual({ label: "Apartamentos à venda", count: String(sale.n), range: "R$\u00a0450.000 a R$\u00a01.200.000" });
    expect(sale).toMatchObject({ n: 2, min: 450000, max: 1200000 });
    const rent = rows.find((row) => row.type === "apartamento" && row.purpose === "aluguel")!;
    expect(byLabel["Apartamentos para alugar"]).toEqual({ label: "Apartamentos para alugar", count: String(rent.n), range: "R$\u00a02.500 a R$\u00a04.000/mês" });
    // A listing without a price counts, but is no price.
    expect(byLabel["Casa à venda"]).toEqual({ label: "Casa à venda", count: "1", range: "Sob consulta" });
    expect(data.page!.ranges).toEqual([
      { label: "Venda", count: "3 imóveis", range: "R$\u00a0450.000 a R$\u00a01.200.000" },
      { label: "Aluguel", count: "2 imóveis", range: "R$\u00a02.500 a R$\u00a04.000/mês" },
    ]);
  });

  it("joins spellings that differ in accents (Petrópolis, Petropolis) and describes the page in JSON-LD", async () => {
    const { data } = await page("petropolis");
    expect(data.page!.listings.map((listing) => listing.id).sort()).toEqual([ids.petropolis, ids.petropolisSemAcento].sort());
    const jsonLd = JSON.parse(data.page!.jsonLd);
    expect(jsonLd).toMatchObject({
      "@type": "CollectionPage",
      url: "http://localhost:3000/imoveis/bairro/petropolis",
      about: { "@type": "Place", name: "Petropolis" },
      mainEntity: { "@type": "ItemList", numberOfItems: 2 },
    });
    expect(jsonLd.mainEntity.itemListElement.map((item: { url: string }) => item.url).sort()).toEqual(
      [ids.petropolis, ids.petropolisSemAcento].map((id) => `http://localhost:3000/imoveis/${id}`).sort(),
    );
  });

  it.each(["tirol", "bairro-que-nao-existe", "Ponta Negra", "ponta--negra", "x".repeat(200)])("answers 404 for %s", async (slug) => {
    const { data, status } = await page(slug);
    expect(status).toBe(404);
    expect(data.page).toBeNull();
  });

  it("the index lists every neighbourhood with a listing on the market, with its counts", async () => {
    const { neighbourhoods } = (await indexLoader()) as { neighbourhoods: { name: string; href: string; summary: string }[] };
    expect(neighbourhoods.map((item) => item.href)).toEqual(["/imoveis/bairro/petropolis", "/imoveis/bairro/ponta-negra", "/imoveis/bairro/ponta-negra-sul"]);
    expect(neighbourhoods[1]).toMatchObject({ name: "Ponta Negra", summary: "5 imóveis: 3 à venda e 2 para alugar" });
  });

  it("the property page links to its neighbourhood while the listing is on the market", async () => {
    const load = async (id: string) =>
      unwrap<{ neighbourhoodHref: string | null }>(await propertyLoader({ request: makeRequest(`/imoveis/${id}`), params: { id }, context } as never)).data;
    expect((await load(ids.apVenda2)).neighbourhoodHref).toBe("/imoveis/bairro/ponta-negra");
    expect((await load(ids.petropolis)).neighbourhoodHref).toBe("/imoveis/bairro/petropolis");
    expect((await load(ids.tirolVendida)).neighbourhoodHref).toBeNull();
  });

  it("the sitemap lists the index and every neighbourhood page, and no page without listings", async () => {
    const xml = await (await sitemapLoader()).text();
    for (const path of ["/imoveis/bairros", "/imoveis/bairro/ponta-negra", "/imoveis/bairro/petropolis", "/imoveis/bairro/ponta-negra-sul"]) {
      expect(xml).toContain(`<loc>http://localhost:3000${path}</loc>`);
    }
    expect(xml).not.toContain("/imoveis/bairro/tirol");
    expect(xml.trim().endsWith("</urlset>")).toBe(true);
  });

  describe("the broker's text", () => {
    const post = (form: Record<string, string>) =>
      crmAction({ request: makeRequest("/crm/bairros", { form, cookie: corretor.cookie }), params: {}, context } as never).then((result) => unwrap<{ ok: boolean; message: string }>(result));

    it("is saved, audited, announced to the page cache and shown on the page", async () => {
      let changes = 0;
      const unsubscribe = await onPublicDataChange(() => changes++);
      try {
        const text = "Bairro da praia, do Morro do Careca e da Via Costeira.\nPerto de tudo.";
        const answer = await post({ slug: "ponta-negra", text: `  ${text}  ` });
        expect(answer).toEqual({ data: { ok: true, message: "Texto de Ponta Negra salvo.", slug: "ponta-negra" }, status: 200 });
        const [row] = await test.runtime.db.select().from(neighbourhood_texts).where(eq(neighbourhood_texts.slug, "ponta-negra"));
        expect(row).toMatchObject({ text, updated_by: corretor.email });
        expect((await page("ponta-negra")).data.page!.text).toBe(text);
        const [audit] = await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "neighbourhood.text")).orderBy(desc(audit_log.at)).limit(1);
        expect(audit).toMatchObject({ entity: "neighbourhood", entity_id: "ponta-negra", actor_id: corretor.id, details: { name: "Ponta Negra", textLength: text.length } });
        // The trigger told the process (and so the page cache) that public text changed.
        const started = Date.now();
        while (changes === 0 && Date.now() - started < 5_000) await new Promise((resolve) => setTimeout(resolve, 10));
        expect(changes).toBeGreaterThan(0);
        // The CRM page shows it in its form.
        const crm = (await crmLoader({ request: makeRequest("/crm/bairros", { cookie: corretor.cookie }), params: {}, context } as never)) as {
          rows: { slug: string; text: string; updated: string | null }[];
        };
        expect(crm.rows.map((item) => item.slug)).toEqual(["petropolis", "ponta-negra", "ponta-negra-sul"]);
        expect(crm.rows[1]).toMatchObject({ text, updated: expect.stringContaining(corretor.email) });
      } finally {
        unsubscribe();
      }
    });

    it("an unchanged text writes nothing; an empty one removes it", async () => {
      await post({ slug: "petropolis", text: "Bairro tradicional, perto do centro." });
      const audits = async () => (await test.runtime.db.select().from(audit_log).where(eq(audit_log.entity_id, "petropolis"))).length;
      const before = await audits();
      expect((await post({ slug: "petropolis", text: "Bairro tradicional, perto do centro." })).data).toMatchObject({ ok: true, message: "Nada mudou no texto." });
      expect(await audits()).toBe(before);
      expect((await post({ slug: "petropolis", text: "   " })).data).toMatchObject({ ok: true, message: "Texto de Petropolis removido." });
      expect(await audits()).toBe(before + 1);
      expect(await test.runtime.db.select().from(neighbourhood_texts).where(eq(neighbourhood_texts.slug, "petropolis"))).toHaveLength(0);
      expect((await page("petropolis")).data.page!.text).toBeNull();
    });

    it.each([
      ["a text over the limit", { slug: "ponta-negra", text: "a".repeat(NEIGHBOURHOOD_TEXT_MAX + 1) }, NEIGHBOURHOOD_TEXT_MESSAGES.text],
      ["control characters", { slug: "ponta-negra", text: "abc\u0007" }, NEIGHBOURHOOD_TEXT_MESSAGES.invalid],
      ["no text field", { slug: "ponta-negra" }, NEIGHBOURHOOD_TEXT_MESSAGES.missing],
      ["a malformed slug", { slug: "Ponta Negra", text: "ok" }, NEIGHBOURHOOD_TEXT_MESSAGES.slug],
      ["a neighbourhood with nothing on the market", { slug: "tirol", text: "ok" }, NEIGHBOURHOOD_TEXT_MESSAGES.unknown],
      ["an unknown neighbourhood", { slug: "atlantida", text: "ok" }, NEIGHBOURHOOD_TEXT_MESSAGES.unknown],
    ])("refuses %s with 400 and a Portuguese message, saving nothing", async (_, form, message) => {
      const before = await test.runtime.db.select().from(neighbourhood_texts);
      const answer = await post(form as Record<string, string>);
      expect(answer.status).toBe(400);
      expect(answer.data).toMatchObject({ ok: false, message });
      expect(await test.runtime.db.select().from(neighbourhood_texts)).toEqual(before);
    });

    it("refuses a body that is not a form with 400", async () => {
      const request = new Request("http://localhost:3000/crm/bairros", {
        method: "POST",
        headers: { "Content-Type": "text/plain", Cookie: corretor.cookie, Origin: "http://localhost:3000" },
        body: "slug=ponta-negra&text=x",
      });
      const answer = unwrap<{ ok: boolean }>(await crmAction({ request, params: {}, context } as never));
      expect(answer.status).toBe(400);
      expect(answer.data.ok).toBe(false);
    });
  });
});
