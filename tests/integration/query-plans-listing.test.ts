import { arrayContains, count, desc, eq, gte, lte, type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { propertiesPublic } from "~/db/schema";
import { DEFAULT_FILTERS, type ListFilters } from "~/features/properties/filters";
import { filterConditions } from "~/features/properties/public-queries.server";
import { planNodes, recordingDb, type Recorded } from "../helpers/query-plans";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The indexes of migration 0009 (issue 22) for the public filters that come next: suítes, área
 * útil and total, condomínio, características, mobília and 'aceita financiamento'. Each filter is
 * run the way /imoveis reads (a count and a page in the list's order, through properties_public)
 * on 10,000 listings where it is selective; no statement may read properties with a Seq Scan, and
 * the count must use the filter's own index. The conditions are the list's own (filterConditions,
 * decision 017), which also leaves sold and rented listings out by default.
 */

const LISTINGS = 10_000;

async function seed(test: TestRuntime) {
  const run = (text: string) => (test.kind === "pglite" ? test.runtime.database.pglite!.exec(text) : test.runtime.database.pool!.query(text));
  await run(`
    insert into properties (codigo, title, description, type, purpose, status, featured, price, area, bedrooms, bathrooms,
                            parking_spaces, neighborhood, city, created_at, updated_at,
                            suites, total_area, condo_fee, iptu_yearly, furnished, accepts_financing, features)
    select 'L' || g, 'Imóvel de teste número ' || g, 'Descrição do imóvel de teste ' || g || ', com varanda e garagem.',
           (array['casa','apartamento','terreno','ponto_comercial'])[1 + g % 4],
           (array['venda','aluguel'])[1 + g % 3 % 2],
           -- Some sold, rented or under negotiation: the list's default leaves the first two out.
           (array['disponivel','disponivel','vendido','alugado','em_negociacao'])[1 + g % 13 % 5], g % 50 = 0, (g % 60) * 100000,
           40 + g % 300, 3 + g % 2, 2, g % 5, 'Bairro ' || (g % 500), 'Natal',
           now() - g * interval '1 minute', now() - g * interval '1 minute',
           -- Most listings said nothing (as old ones): the partial indexes leave them out.
           case when g % 20 = 0 then 3 when g % 3 = 0 then 1 end,
           case when g % 7 = 0 then 60 + g % 900 end,
           case when g % 4 = 1 then 350 + (g % 50) * 30 end,
           case when g % 2 = 0 then 600 + g % 3000 end,
           case when g % 25 = 0 then 'mobiliado' when g % 9 = 0 then 'sem_mobilia' end,
           case when g % 30 = 0 then true when g % 11 = 0 then false end,
           case when g % 50 = 0 then array['piscina', 'academia', 'elevador'] when g % 5 = 0 then array['varanda'] else '{}'::text[] end
    from generate_series(1, ${LISTINGS}) g`);
  await run("vacuum analyze properties");
}

/** A filter as /imoveis will run it: the count, then the first page in the list's order. */
const filtered = (where: SQL) => async (db: Database) => {
  await db.select({ total: count() }).from(propertiesPublic).where(where);
  await db
    .select({ id: propertiesPublic.id })
    .from(propertiesPublic)
    .where(where)
    .orderBy(desc(propertiesPublic.featured), desc(propertiesPublic.created_at), desc(propertiesPublic.id))
    .limit(12);
};

/** The WHERE /imoveis builds for these filters (decision 017): the list's own code, sold/rented excluded. */
const where = (patch: Partial<ListFilters>) => filterConditions({ ...DEFAULT_FILTERS, ...patch })!;

const CASES: [name: string, index: string, read: (db: Database) => Promise<void>][] = [
  ["suítes 3+", "properties_suites_idx", filtered(where({ suites: "3" }))],
  ["área útil from 330 m²", "properties_area_idx", filtered(where({ areaMin: 330 }))],
  // The list filters on área útil only; área total keeps its index for whoever needs it.
  ["área total from 900 m²", "properties_total_area_idx", filtered(gte(propertiesPublic.total_area, 900))],
  ["condomínio up to R$ 400", "properties_condo_fee_idx", filtered(where({ condominioMax: 400 }))],
  ["with a pool", "properties_features_idx", filtered(where({ carac: ["piscina"] }))],
  ["mobiliado", "properties_furnished_idx", filtered(where({ mobiliado: true }))],
  ["aceita financiamento", "properties_accepts_financing_idx", filtered(where({ financiamento: true }))],
  // The shapes decision 016 prescribed, as written there (with sold and rented listings shown).
  ["suítes 3+ (any status)", "properties_suites_idx", filtered(where({ suites: "3", vendidos: true }))],
  ["aceita financiamento (literal)", "properties_accepts_financing_idx", filtered(sql`${propertiesPublic.accepts_financing} is true`)],
  ["mobiliado (parameter)", "properties_furnished_idx", filtered(eq(propertiesPublic.furnished, "mobiliado"))],
  ["with a pool (parameter)", "properties_features_idx", filtered(arrayContains(propertiesPublic.features, ["piscina"]))],
  ["condomínio (parameter)", "properties_condo_fee_idx", filtered(lte(propertiesPublic.condo_fee, 400))],
];

describe.each(DATABASE_KINDS)("listing filter indexes at scale (%s)", (kind) => {
  let test: TestRuntime;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    await seed(test);
  }, 180_000);
  afterAll(async () => {
    await test?.stop();
  });

  it.each(CASES)("%s reads through %s", async (name, index, read) => {
    const recorded: Recorded[] = [];
    await read(recordingDb(test, recorded));
    expect(recorded).toHaveLength(2);
    for (const statement of recorded) {
      const nodes = await planNodes(test, statement);
      const described = `${name}: ${statement.sql}\n${JSON.stringify(nodes.map((node) => [node["Node Type"], node["Relation Name"], node["Index Name"]]))}`;
      expect(nodes.filter((node) => node["Node Type"] === "Seq Scan" && node["Relation Name"] === "properties"), described).toEqual([]);
      if (/^select count\(\*\)/i.test(statement.sql)) expect(nodes.map((node) => node["Index Name"]), described).toContain(index);
    }
  }, 60_000);
});
