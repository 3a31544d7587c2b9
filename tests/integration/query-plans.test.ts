import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { listUsersPage } from "~/features/auth/users.server";
import { listCrmLeadsPage } from "~/features/leads/crm.server";
import { listCrmPropertiesPage } from "~/features/properties/crm.server";
import { DEFAULT_FILTERS, type ListFilters } from "~/features/properties/filters";
import { listFeaturedProperties, listPublicPropertiesPage, sitemapProperties } from "~/features/properties/public-queries.server";
import { planNodes, recordingDb, type Recorded } from "../helpers/query-plans";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Every list query of the site and the CRM reads through an index at the scale of an agency:
 * 10,000 listings, 100,000 leads, 10,000 accounts. Each list function runs against a database
 * that records its SQL; each recorded statement is EXPLAINed, and no plan may read one of the big
 * tables with a Seq Scan. Timings are printed as figures (p95 of a few runs), not asserted.
 */

const LISTINGS = 10_000;
const LEADS = 100_000;
const USERS = 10_000;
const RUNS = 15;
const BIG_TABLES = new Set(["properties", "leads", "user"]);


async function seed(test: TestRuntime) {
  // Bulk seeding is long work: on PostgreSQL, the long-work connections (db/postgres.server.ts).
  const run = (sql: string) => (test.kind === "pglite" ? test.runtime.database.pglite!.exec(sql) : test.runtime.database.longPool!.query(sql));
  await run(`
    insert into properties (codigo, title, description, type, purpose, status, featured, price, area, bedrooms, bathrooms,
                            parking_spaces, neighborhood, city, created_at, updated_at)
    select 'P' || g, 'Imóvel de teste número ' || g, 'Descrição do imóvel de teste ' || g || ', com varanda e garagem.',
           (array['casa','apartamento','terreno','ponto_comercial'])[1 + g % 4],
           (array['venda','aluguel'])[1 + g % 3 % 2],
           (array['disponivel','vendido','alugado','em_negociacao'])[1 + g % 7 % 4],
           g % 50 = 0, (g % 60) * 100000, 40 + g % 300, g % 6, g % 4, g % 5,
           case when g % 100 = 0 then 'Petrópolis' else 'Bairro ' || (g % 500) end, 'Natal',
           now() - g * interval '1 minute', now() - g * interval '1 minute'
    from generate_series(1, ${LISTINGS}) g`);
  await run(`
    insert into leads (full_name, phone, email, interest_type, origin, status, created_at)
    select 'Pessoa ' || g || ' Souza', '(84) 9' || lpad((g % 10000)::text, 4, '0') || '-' || lpad((g / 10)::text, 4, '0'),
           case when g % 3 = 0 then null else 'pessoa' || g || '@exemplo.com' end,
           (array['comprar','alugar','vender'])[1 + g % 3], (array['site','whatsapp','indicacao','outro'])[1 + g % 4],
           (array['novo','em_atendimento','convertido','perdido'])[1 + g % 4], now() - g * interval '10 seconds'
    from generate_series(1, ${LEADS}) g`);
  await run(`
    insert into "user" (id, name, email, email_verified)
    select 'user-' || g, 'Usuário ' || g, 'usuario' || g || '@exemplo.com', g % 2 = 0 from generate_series(1, ${USERS}) g`);
  // Autovacuum would have done this on a live server; the visibility map lets counts read indexes only.
  await run("vacuum analyze properties");
  await run("vacuum analyze leads");
  await run('vacuum analyze "user"');
}

/** A database handle on the same connection that records every statement it sends. */
const filters = (patch: Partial<ListFilters>): ListFilters => ({ ...DEFAULT_FILTERS, ...patch });
const lastPage = Math.ceil(LISTINGS / 12);

/**
 * Each list the product reads, by name, and which of its statements may read a whole table: a
 * count that matches a large share of the rows (PostgreSQL rightly prefers one sequential pass to
 * visiting most of an index and the table), a page deep in the list, the sitemap (every listing).
 */
type Allowance = "count" | "all";
const CASES: [string, (db: Database) => Promise<unknown>, Allowance?][] = [
  ["home: featured", (db) => listFeaturedProperties(db)],
  ["/imoveis", (db) => listPublicPropertiesPage(db, DEFAULT_FILTERS, 1), "count"],
  ["/imoveis page 2", (db) => listPublicPropertiesPage(db, DEFAULT_FILTERS, 2), "count"],
  ["/imoveis last page", (db) => listPublicPropertiesPage(db, DEFAULT_FILTERS, lastPage), "all"],
  ["/imoveis tipo", (db) => listPublicPropertiesPage(db, filters({ tipo: "apartamento" }), 1)],
  // Sold and rented ones too (decision 017): the same index, without the status condition.
  ["/imoveis tipo + vendidos", (db) => listPublicPropertiesPage(db, filters({ tipo: "apartamento", vendidos: true }), 1)],
  ["/imoveis finalidade", (db) => listPublicPropertiesPage(db, filters({ finalidade: "aluguel" }), 1), "count"],
  ["/imoveis bairro", (db) => listPublicPropertiesPage(db, filters({ bairro: "petropolis" }), 1)],
  ["/imoveis quartos 2", (db) => listPublicPropertiesPage(db, filters({ quartos: "2" }), 1), "count"],
  ["/imoveis quartos 4+", (db) => listPublicPropertiesPage(db, filters({ quartos: "4+" }), 1), "count"],
  ["/imoveis vagas 3+", (db) => listPublicPropertiesPage(db, filters({ vagas: "3" }), 1), "count"],
  ["/imoveis preço mín", (db) => listPublicPropertiesPage(db, filters({ precoMin: 4_000_000 }), 1), "count"],
  ["/imoveis preço máx", (db) => listPublicPropertiesPage(db, filters({ precoMax: 500_000 }), 1), "count"],
  [
    "/imoveis all filters",
    (db) =>
      listPublicPropertiesPage(
        db,
        filters({ tipo: "casa", finalidade: "venda", bairro: "bairro 1", quartos: "2", vagas: "1", precoMin: 100_000, precoMax: 4_000_000 }),
        1,
      ),
  ],
  [
    "sitemap",
    async (db) => {
      for await (const batch of sitemapProperties(db)) void batch;
    },
    "all",
  ],
  ["CRM imóveis", (db) => listCrmPropertiesPage(db, { search: "", page: 1 }), "count"],
  ["CRM imóveis page 100", (db) => listCrmPropertiesPage(db, { search: "", page: 100 }), "all"],
  ["CRM imóveis busca código", (db) => listCrmPropertiesPage(db, { search: "P1234", page: 1 })],
  ["CRM imóveis busca título", (db) => listCrmPropertiesPage(db, { search: "número 777", page: 1 })],
  ["CRM imóveis busca bairro", (db) => listCrmPropertiesPage(db, { search: "petropolis", page: 1 })],
  ["CRM leads", (db) => listCrmLeadsPage(db, { status: null, search: "", page: 1 }), "count"],
  ["CRM leads page 1000", (db) => listCrmLeadsPage(db, { status: null, search: "", page: 1000 }), "all"],
  ["CRM leads status", (db) => listCrmLeadsPage(db, { status: "convertido", search: "", page: 1 }), "count"],
  ["CRM leads status page 100", (db) => listCrmLeadsPage(db, { status: "novo", search: "", page: 100 }), "all"],
  ["CRM leads busca nome", (db) => listCrmLeadsPage(db, { status: null, search: "pessoa 4242 souza", page: 1 })],
  ["CRM leads busca telefone", (db) => listCrmLeadsPage(db, { status: null, search: "9424", page: 1 })],
  ["CRM leads busca email", (db) => listCrmLeadsPage(db, { status: null, search: "pessoa777@", page: 1 })],
  ["CRM leads status + busca", (db) => listCrmLeadsPage(db, { status: "novo", search: "souza 12", page: 1 })],
  ["CRM usuários", (db) => listUsersPage(db, { search: "", page: 1 }), "count"],
  ["CRM usuários page 200", (db) => listUsersPage(db, { search: "", page: 200 }), "all"],
  ["CRM usuários busca", (db) => listUsersPage(db, { search: "usuario42", page: 1 })],
];

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

describe.each(DATABASE_KINDS)("list queries at scale (%s)", (kind) => {
  let test: TestRuntime;
  const figures: Record<string, { statements: number; indexes: string; seqScan: string; p95ms: number }> = {};

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    const started = performance.now();
    await seed(test);
    console.log(`[query-plans ${kind}] seeded ${LISTINGS} listings, ${LEADS} leads, ${USERS} users in ${Math.round(performance.now() - started)} ms`);
  }, 180_000);

  afterAll(async () => {
    console.log(`[query-plans ${kind}] p95 of ${RUNS} runs per list (all its statements together):`);
    console.table(figures);
    await test?.stop();
  });

  it.each(CASES)("%s reads through indexes", async (name, read, allowance) => {
    const recorded: Recorded[] = [];
    await read(recordingDb(test, recorded));
    expect(recorded.length).toBeGreaterThan(0);
    const indexes = new Set<string>();
    const seqScanned: string[] = [];
    for (const statement of recorded) {
      const nodes = await planNodes(test, statement);
      const seqScans = nodes.filter((node) => node["Node Type"] === "Seq Scan" && BIG_TABLES.has(node["Relation Name"] ?? ""));
      const isCount = /^select count\(\*\)/i.test(statement.sql);
      const allowed = allowance === "all" || (allowance === "count" && isCount);
      if (!allowed) {
        expect(seqScans, `${name}: ${statement.sql}\n${JSON.stringify(nodes.map((node) => [node["Node Type"], node["Relation Name"], node["Index Name"]]))}`).toEqual([]);
      }
      if (seqScans.length) seqScanned.push(isCount ? "count" : "rows");
      nodes.forEach((node) => node["Index Name"] && indexes.add(node["Index Name"]));
    }
    const samples: number[] = [];
    for (let index = 0; index < RUNS + 2; index++) {
      const started = performance.now();
      await read(test.runtime.db);
      if (index >= 2) samples.push(performance.now() - started);
    }
    figures[name] = {
      statements: recorded.length,
      indexes: [...indexes].join(", "),
      seqScan: seqScanned.join(", ") || "-",
      p95ms: Math.round(p95(samples) * 10) / 10,
    };
  }, 60_000);
});
