import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { properties } from "~/db/schema";
import { loader as listLoader } from "~/routes/properties";
import { loader as propertyLoader } from "~/routes/property";
import { makeRequest } from "../helpers/factories";
import { listPage } from "../helpers/list-page";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * /imoveis's issue-22 filters (decision 017), each checked against a count written by hand in SQL
 * over the table itself: the loader's total must be exactly that count, and each filter must
 * narrow the list (or the comparison proves nothing). Sold and rented listings are out by default.
 */

const LISTINGS = 80;
const AVAILABLE = "status in ('disponivel', 'em_negociacao')";

const CASES: [query: string, where: string][] = [
  ["suites=2", `${AVAILABLE} and suites >= 2`],
  ["vagas=2", `${AVAILABLE} and parking_spaces >= 2`],
  ["area_min=150", `${AVAILABLE} and area >= 150`],
  ["area_max=120", `${AVAILABLE} and area <= 120`],
  ["area_min=80&area_max=200", `${AVAILABLE} and area between 80 and 200`],
  ["condominio_max=600", `${AVAILABLE} and condo_fee <= 600`],
  ["carac=piscina", `${AVAILABLE} and 'piscina' = any(features)`],
  ["carac=piscina&carac=academia", `${AVAILABLE} and 'piscina' = any(features) and 'academia' = any(features)`],
  ["carac=varanda", `${AVAILABLE} and 'varanda' = any(features)`],
  ["financiamento=1", `${AVAILABLE} and accepts_financing`],
  ["mobiliado=1", `${AVAILABLE} and furnished = 'mobiliado'`],
  ["vendidos=1", "true"],
  ["vendidos=1&suites=1", "suites >= 1"],
  ["tipo=apartamento&suites=1&carac=piscina&financiamento=1", `${AVAILABLE} and type = 'apartamento' and suites >= 1 and 'piscina' = any(features) and accepts_financing`],
];

describe.each(DATABASE_KINDS)("the listing's filters on /imoveis (%s)", (kind) => {
  let test: TestRuntime;
  const sqlCount = async (where: string) => {
    const [{ total }] = await test.runtime.db.select({ total: count() }).from(properties).where(sql.raw(where));
    return total;
  };
  const listTotal = async (query: string) =>
    listPage(await listLoader({ request: makeRequest(`/imoveis?${query}`), params: {}, context: { cspNonce: "n", clientIp: "198.51.100.7" } } as never));

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    await test.runtime.db.execute(
      sql.raw(`
      insert into properties (codigo, title, description, type, purpose, status, featured, price, area, bedrooms, bathrooms,
                              parking_spaces, neighborhood, city, suites, total_area, condo_fee, iptu_yearly, furnished,
                              accepts_financing, features, created_at, updated_at)
      select 'F' || g, 'Imóvel filtrado ' || g, 'Descrição do imóvel ' || g,
             (array['casa','apartamento','terreno','ponto_comercial'])[1 + g % 4],
             (array['venda','aluguel'])[1 + g % 3 % 2],
             (array['disponivel','vendido','alugado','em_negociacao','disponivel'])[1 + g % 5],
             g % 9 = 0, 100000 + g * 10000,
             case when g % 6 = 0 then null else 40 + (g * 7) % 260 end, 1 + g % 4, 1 + g % 3, g % 4,
             'Bairro ' || (g % 7), 'Natal',
             case when g % 4 = 0 then null else g % 4 end,
             case when g % 5 = 0 then 100 + g end,
             case when g % 3 = 0 then null else 300 + (g * 37) % 900 end,
             case when g % 2 = 0 then 1200 + g end,
             case when g % 7 = 0 then 'mobiliado' when g % 7 = 1 then 'semimobiliado' when g % 7 = 2 then 'sem_mobilia' end,
             case when g % 3 = 0 then true when g % 3 = 1 then false end,
             case when g % 4 = 0 then array['piscina','academia'] when g % 4 = 1 then array['piscina','varanda'] when g % 4 = 2 then array['varanda'] else '{}'::text[] end,
             now() - g * interval '1 hour', now() - g * interval '1 hour'
      from generate_series(1, ${LISTINGS}) g`),
    );
  });
  afterAll(async () => {
    await test?.stop();
  });

  it("leaves sold and rented listings out by default, and shows them with vendidos=1", async () => {
    const page = await listTotal("");
    expect(page.total).toBe(await sqlCount(AVAILABLE));
    expect(page.total).toBeLessThan(LISTINGS);
    expect(page.properties.every((card) => card.status === "disponivel" || card.status === "em_negociacao")).toBe(true);
    const all = await listTotal("vendidos=1");
    expect(all.total).toBe(LISTINGS);
    expect(all.properties.some((card) => card.status === "vendido" || card.status === "alugado")).toBe(true);
  });

  it.each(CASES)("%s narrows the list exactly as SQL counts", async (query, where) => {
    const expected = await sqlCount(where);
    const page = await listTotal(query);
    expect(page.total).toBe(expected);
    expect(expected).toBeGreaterThan(0);
    // A filter that narrows nothing would prove nothing ('vendidos' widens: compared with everything).
    if (!query.startsWith("vendidos=1")) expect(expected).toBeLessThan(await sqlCount(AVAILABLE));
    // The page holds the first of those listings (up to the page size).
    expect(page.properties.length).toBe(Math.min(expected, 12));
  });

  it("ignores bad values instead of failing", async () => {
    const page = await listTotal("suites=abc&area_min=-1&area_max=x&condominio_max=9999999999&carac=nada&financiamento=talvez&vendidos=2");
    expect(page.total).toBe(await sqlCount(AVAILABLE));
  });

  it("gives the property page its issue-22 blocks, ready to render, and nothing of a hidden address", async () => {
    const [row] = await test.runtime.db
      .insert(properties)
      .values({
        codigo: "VAL-1",
        title: "Apartamento completo",
        description: "Apartamento com tudo o que um inquilino precisa, perto da praia de Ponta Negra.",
        type: "apartamento",
        purpose: "aluguel",
        price: 2500,
        area: 80,
        neighborhood: "Ponta Negra",
        city: "Natal",
        condo_fee: 600,
        iptu_yearly: 1800,
        bedrooms: 2,
        suites: 1,
        features: ["piscina", "varanda"],
        rental_guarantees: ["fiador"],
        display_address: false,
        street_address: "Rua Secreta",
        address_number: "77-B secreto",
        latitude: -5.881234,
        longitude: -35.171234,
      } as never)
      .returning();
    const result = (await propertyLoader({ request: makeRequest(`/imoveis/${row.id}`), params: { id: row.id }, context: { cspNonce: "n" } } as never)) as {
      listing: { values: { label: string; value: string }[]; facts: { label: string }[]; features: { label: string }[] };
    };
    expect(result.listing.values.map((value) => value.label)).toEqual(["Aluguel", "Condomínio", "IPTU", "Total mensal"]);
    expect(result.listing.values.at(-1)!.value.replace(/\u00a0/g, " ")).toBe("R$ 3.250/mês");
    expect(result.listing.facts.map((fact) => fact.label)).toEqual(["Suítes", "Garantia"]);
    expect(result.listing.features.map((group) => group.label)).toEqual(["Do imóvel", "Do condomínio"]);
    const text = JSON.stringify(result);
    for (const secret of ["Rua Secreta", "77-B secreto", "5.881234", "35.171234"]) expect(text).not.toContain(secret);
  });
});
