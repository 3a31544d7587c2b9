/**
 * Matching at scale (issue 23, docs/decisions/023): 20,000 leads with one profile each and 2,000
 * listings on PostgreSQL; times a lead page's matching (profile → listings), a listing's leads
 * (listing → profiles) and the dashboard's 'Novos matches'. A figure, not a test:
 *
 *   createdb -h 127.0.0.1 -U postgres bench_matching
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_matching npx tsx bench/matching.bench.ts
 *
 * The database is migrated and (re)filled with rows whose codes start with 'BM-'.
 */
import { sql } from "drizzle-orm";
import { migrateDatabase, openPostgres } from "~/db/client.server";
import { leadsForProperty, matchesForProfile } from "~/features/matching/match.server";
import { newMatches } from "~/features/matching/new-matches.server";
import { loadProfile } from "~/features/matching/profiles.server";
import { ms, percentile } from "./helpers";

const LEADS = 20_000;
const LISTINGS = 2_000;
const SAMPLES = 100;

const url = process.env.DATABASE_URL;
if (!url?.startsWith("postgres")) throw new Error("DATABASE_URL=postgres://… is required");
const handle = await openPostgres(url, 4);
await migrateDatabase(handle);
const db = handle.db;

await db.execute(sql`delete from leads where full_name like 'BM %'`);
await db.execute(sql`delete from properties where codigo like 'BM-%'`);
const hoods = ["Ponta Negra", "Capim Macio", "Lagoa Nova", "Tirol", "Petrópolis", "Candelária", "Neópolis", "Nova Parnamirim", "Cidade Verde", "Pitimbu", "Barro Vermelho", "Lagoa Seca"];
await db.execute(sql`
  insert into properties (codigo, title, description, type, purpose, status, price, area, bedrooms, suites, parking_spaces, neighborhood, features, accepts_financing, created_at)
  select 'BM-' || i, 'Imóvel de bench número ' || i, 'Descrição do imóvel de bench.',
    (array['casa','apartamento','terreno','ponto_comercial'])[1 + i % 4],
    case when i % 5 = 0 then 'aluguel' else 'venda' end,
    case when i % 10 = 0 then 'vendido' else 'disponivel' end,
    case when i % 5 = 0 then 1000 + (i % 50) * 100 else 150000 + (i % 100) * 10000 end,
    40 + i % 200, 1 + i % 5, least(i % 3, 1 + i % 5), i % 4,
    (${sql.param(hoods)}::text[])[1 + i % ${hoods.length}],
    case i % 4 when 0 then array['piscina','varanda'] when 1 then array['academia'] when 2 then array['varanda'] else '{}'::text[] end,
    case when i % 3 = 0 then null else i % 2 = 0 end,
    now() - make_interval(days => i % 60)
  from generate_series(1, ${LISTINGS}) as i`);
await db.execute(sql`
  insert into leads (full_name, phone, email)
  select 'BM Lead ' || i, '(84) 9' || lpad((i % 100000000)::text, 8, '0'), 'bm' || i || '@teste.com'
  from generate_series(1, ${LEADS}) as i`);
await db.execute(sql`
  insert into lead_profiles (lead_id, purpose, types, neighborhoods, neighborhood_keys, price_min, price_max, min_bedrooms, min_parking, features, accepts_financing)
  select l.id,
    case when n % 5 = 0 then 'aluguel' else 'venda' end,
    case when n % 3 = 0 then '{}'::text[] else array[(array['casa','apartamento','terreno','ponto_comercial'])[1 + n % 4]] end,
    case when n % 4 = 0 then '{}'::text[] else array[(${sql.param(hoods)}::text[])[1 + n % ${hoods.length}], (${sql.param(hoods)}::text[])[1 + (n + 5) % ${hoods.length}]] end,
    '{}'::text[],
    null,
    case when n % 5 = 0 then 2000 + (n % 30) * 100 else 300000 + (n % 80) * 10000 end,
    1 + n % 4, n % 3,
    case when n % 2 = 0 then array['varanda'] else '{}'::text[] end,
    n % 7 = 0
  from (select id, row_number() over (order by id) as n from leads where full_name like 'BM %') as l`);
await db.execute(sql`update lead_profiles set neighborhood_keys = array(select immutable_unaccent(lower(x)) from unnest(neighborhoods) as x) where cardinality(neighborhoods) > 0 and cardinality(neighborhood_keys) = 0`);
await db.execute(sql`analyze properties; analyze lead_profiles; analyze leads`);

const pick = async (query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: { id: string }[] }).rows.map((row) => row.id);
const profileIds = await pick(sql`select lp.id from lead_profiles lp join leads l on l.id = lp.lead_id where l.full_name like 'BM %' order by random() limit ${SAMPLES}`);
const listingIds = await pick(sql`select id from properties where codigo like 'BM-%' order by random() limit ${SAMPLES}`);

async function time(label: string, ids: string[], work: (id: string) => Promise<number>) {
  const times: number[] = [];
  let rows = 0;
  for (const id of ids) {
    const start = performance.now();
    rows += await work(id);
    times.push(performance.now() - start);
  }
  console.log(`${label}: median ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(Math.max(...times))} (${ids.length} runs, ${(rows / ids.length).toFixed(1)} rows each)`);
}

console.log(`matching bench: ${LEADS} leads with a profile each, ${LISTINGS} listings, PostgreSQL`);
await time("lead page: a profile's listings (load profile + match)", profileIds, async (id) => (await matchesForProfile(db, (await loadProfile(db, id))!)).length);
await time("listing page: a listing's leads", listingIds, async (id) => (await leadsForProperty(db, id))!.leads.length);
await time("dashboard: 'Novos matches' (7 days)", listingIds.slice(0, 10), async () => (await newMatches(db, new Date())).items.length);
await handle.close();
