import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { getWorkingDay } from "~/features/dashboard/working-day.server";
import { listLeadBoard } from "~/features/leads/board.server";
import { planNodes, recordingDb, type Recorded } from "../helpers/query-plans";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The dashboard's working-day lists and the pipeline board read through indexes at the scale of
 * an agency (100,000 leads, 20,000 visits, nearly all of them past): every statement they send is EXPLAINed and none may
 * read leads or visits with a Seq Scan — except the board's per-status totals without a search,
 * which count the whole table (one pass is the right plan for that).
 */

const LEADS = 100_000;
const VISITS = 20_000;
const BIG_TABLES = new Set(["leads", "visits"]);

async function seed(test: TestRuntime) {
  // Bulk seeding is long work: on PostgreSQL, the long-work connections (db/postgres.server.ts).
  const run = (sql: string) => (test.kind === "pglite" ? test.runtime.database.pglite!.exec(sql) : test.runtime.database.longPool!.query(sql));
  await run(`
    insert into leads (full_name, phone, email, interest_type, origin, status, notes, created_at, next_contact_at)
    select 'Pessoa ' || g || ' Souza', '(84) 9' || lpad((g % 10000)::text, 4, '0') || '-' || lpad((g / 10)::text, 4, '0'),
           case when g % 3 = 0 then null else 'pessoa' || g || '@exemplo.com' end,
           (array['comprar','alugar','vender'])[1 + g % 3], (array['site','whatsapp','indicacao','outro'])[1 + g % 4],
           (array['novo','em_atendimento','convertido','perdido'])[1 + g % 4],
           'Mensagem do lead número ' || g || ', com interesse em visitar o imóvel.',
           now() - g * interval '5 minutes',
           case when g % 50 = 0 then now() + (g % 400 - 200) * interval '1 day' else null end
    from generate_series(1, ${LEADS}) g`);
  await run(`
    insert into visits (lead_id, scheduled_at, status)
    select id, now() + (row_number() over () % 720 - 700) * interval '1 day' + (row_number() over () % 24) * interval '1 hour',
           (array['agendada','realizada','cancelada'])[1 + (row_number() over ())::int % 3]
    from leads limit ${VISITS}`);
  await run("vacuum analyze leads");
  await run("vacuum analyze visits");
}

const CASES: [name: string, read: (db: Database) => Promise<unknown>, wholeTableTotals?: boolean][] = [
  ["dashboard working-day lists", (db) => getWorkingDay(db)],
  ["board", (db) => listLeadBoard(db, { search: "" }), true],
  ["board with a name search", (db) => listLeadBoard(db, { search: "pessoa 4242 souza" })],
  ["board with a phone search", (db) => listLeadBoard(db, { search: "9424" })],
];

describe.each(DATABASE_KINDS)("working-day and board queries at scale (%s)", (kind) => {
  let test: TestRuntime;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    await seed(test);
  }, 180_000);
  afterAll(async () => {
    await test?.stop();
  });

  it.each(CASES)("%s reads through indexes", async (name, read, wholeTableTotals) => {
    const recorded: Recorded[] = [];
    await read(recordingDb(test, recorded));
    expect(recorded.length).toBeGreaterThan(0);
    for (const statement of recorded) {
      const nodes = await planNodes(test, statement);
      const totals = /count\(\*\)/i.test(statement.sql) && !/limit/i.test(statement.sql);
      if (wholeTableTotals && totals) continue;
      const seqScans = nodes.filter((node) => node["Node Type"] === "Seq Scan" && BIG_TABLES.has(node["Relation Name"] ?? ""));
      expect(seqScans, `${name}: ${statement.sql}\n${JSON.stringify(nodes.map((node) => [node["Node Type"], node["Relation Name"], node["Index Name"]]))}`).toEqual([]);
    }
  }, 60_000);
});
