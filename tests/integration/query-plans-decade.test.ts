import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { listAuditEntries } from "~/features/audit/audit-log.server";
import { loadLeadPage } from "~/features/leads/lead-page.server";
import { leadsExport } from "~/features/reports/exports.server";
import { parsePeriod } from "~/features/reports/period";
import { loadReport } from "~/features/reports/reports.server";
import { type PlanNode, planNodes, recordingDb, type Recorded } from "../helpers/query-plans";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The screens that meet ten years of data (issue 26, item 2; bench/decade.bench.ts has the
 * timings) read the big tables through indexes: the reports for a month and a year (leads, their
 * timeline, the daily page views — a year reads whole months from the monthly roll-up), the audit
 * trail's pages (in index order, no sort), a lead's page, and the leads export's batches (each
 * starts after the last row of the one before, found by the created_at index; the planner may
 * then sort the batch — a top-N of 2,000 rows, bounded). Scaled down to keep the test
 * short, but large enough that a sequential scan would be the planner's choice without the index:
 * 20,000 leads over ten years with 100,000 timeline rows, 40,000 daily view rows, 30,000 audit rows.
 */

const LEADS = 20_000;
const BIG_TABLES = new Set(["leads", "lead_events", "property_views", "audit_log"]);

async function seed(test: TestRuntime) {
  const run = (sql: string) => (test.kind === "pglite" ? test.runtime.database.pglite!.exec(sql) : test.runtime.database.longPool!.query(sql));
  await run(`
    insert into properties (codigo, title, description, type, purpose, price, neighborhood, created_at)
    select 'D' || g, 'Imóvel ' || g, 'Descrição do imóvel ' || g, 'apartamento', 'venda', 300000 + g * 1000, 'Ponta Negra', now() - interval '10 years'
    from generate_series(1, 100) g`);
  await run(`
    insert into leads (full_name, phone, email, status, property_id, created_at)
    select 'Pessoa ' || g, '(84) 9' || lpad((g % 10000)::text, 4, '0') || '-' || lpad((g / 10)::text, 4, '0'), 'pessoa' || g || '@exemplo.com',
           (array['novo','em_atendimento','convertido','perdido'])[1 + g % 4],
           (select id from properties where codigo = 'D' || (1 + g % 100)),
           now() - (g * 3650.0 / ${LEADS}) * interval '1 day'
    from generate_series(1, ${LEADS}) g`);
  // The 'created' rows come from the trigger; four notes per lead besides.
  await run(`
    insert into lead_events (lead_id, kind, at, body)
    select l.id, 'note', l.created_at + k * interval '1 day', 'Nota ' || k from leads l, generate_series(1, 4) k`);
  // The trigger of migration 0023 fills the monthly roll-up as these go in.
  await run(`
    insert into property_views (property_id, day, views)
    select p.id, current_date - d, 1 + d % 7 from properties p, generate_series(0, 399) d`);
  await run(`
    insert into audit_log (at, actor_email, action, entity, entity_id)
    select now() - g * interval '3 hours', 'corretor@exemplo.com', 'lead.update', 'lead', g::text from generate_series(1, 30000) g`);
  for (const table of ["properties", "leads", "lead_events", "property_views", "property_views_monthly", "audit_log"]) await run(`vacuum analyze ${table}`);
}

const period = (query: string) => {
  const parsed = parsePeriod(new URLSearchParams(query));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.period;
};

const ADMIN = { id: "admin", email: "admin@exemplo.com" };

type Case = {
  name: string;
  read: (db: Database, leadId: string) => Promise<unknown>;
  /** Tables this case may scan whole (a ten-year cohort, a count of everything). */
  scans?: (statement: string, table: string) => boolean;
  /** Tables whose rows must come in index order: no Sort above them. */
  ordered?: string;
};

const counts = (statement: string) => /count\(\*\)/i.test(statement) && !/limit/i.test(statement);

const CASES: Case[] = [
  { name: "report for a month", read: (db) => loadReport(db, period("periodo=mes"), { now: new Date() }) },
  {
    name: "report for a year",
    read: (db) => loadReport(db, period("periodo=ano"), { now: new Date() }),
    // A year of leads is a tenth of them: one pass over leads or their timeline may be the right plan; the page views may not.
    scans: (_statement, table) => table === "leads" || table === "lead_events",
  },
  { name: "audit trail, first page", read: (db) => listAuditEntries(db, 1), scans: counts, ordered: "audit_log" },
  { name: "audit trail, page 40", read: (db) => listAuditEntries(db, 40), scans: counts, ordered: "audit_log" },
  { name: "a lead's page", read: (db, leadId) => loadLeadPage(db, { publicUrl: "http://localhost" }, leadId) },
  {
    name: "leads export (every lead, in batches)",
    read: async (db) => {
      const response = await leadsExport(db, ADMIN, new URL("http://localhost/crm/leads/exportar?formato=csv"));
      return response.text();
    },
    scans: counts,
  },
  {
    name: "leads export of a status",
    read: async (db) => (await leadsExport(db, ADMIN, new URL("http://localhost/crm/leads/exportar?formato=csv&status=perdido"))).text(),
    scans: counts,
  },
];

const describeNode = (node: PlanNode) => [node["Node Type"], node["Relation Name"], node["Index Name"]];

describe.each(DATABASE_KINDS)("ten years' screens read through indexes (%s)", (kind) => {
  let test: TestRuntime;
  let leadId: string;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    await seed(test);
    const found = (await test.runtime.db.execute(sql`select id from leads order by created_at desc limit 1 offset 500`)) as unknown as { rows: { id: string }[] };
    leadId = found.rows[0].id;
  }, 240_000);
  afterAll(async () => {
    await test?.stop();
  });

  it("the roll-up holds every daily view", async () => {
    const sum = async (table: "property_views" | "property_views_monthly") => {
      const result = (await test.runtime.db.execute(sql`select coalesce(sum(views), 0)::int as n from ${sql.identifier(table)}`)) as unknown as { rows: { n: number }[] };
      return Number(result.rows[0].n);
    };
    const daily = await sum("property_views");
    expect(daily).toBeGreaterThan(0);
    expect(await sum("property_views_monthly")).toBe(daily);
  });

  it("the leads export streams every lead once, across its batches, newest first", async () => {
    const response = await leadsExport(test.runtime.db, ADMIN, new URL("http://localhost/crm/leads/exportar?formato=csv"));
    const lines = (await response.text()).split("\r\n").slice(1, -1);
    const names = lines.map((line) => line.split(";")[0]);
    expect(lines).toHaveLength(LEADS);
    expect(new Set(names).size).toBe(LEADS);
    // Created one after another backwards in time: Pessoa 1 is the newest.
    expect([names[0], names.at(-1)]).toEqual(["Pessoa 1", `Pessoa ${LEADS}`]);
  }, 60_000);

  it("the XLSX export streams the same rows, readable by a spreadsheet", async () => {
    const response = await leadsExport(test.runtime.db, ADMIN, new URL("http://localhost/crm/leads/exportar?formato=xlsx&status=perdido"));
    const { default: ExcelJS } = await import("exceljs");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe("Nome");
    // Statuses cycle novo, em_atendimento, convertido, perdido: every fourth lead, the newest Pessoa 3.
    expect(sheet.rowCount - 1).toBe(LEADS / 4);
    expect(sheet.getRow(2).getCell(1).value).toBe("Pessoa 3");
  }, 60_000);

  it.each(CASES)("$name", async ({ name, read, scans, ordered }) => {
    const recorded: Recorded[] = [];
    await read(recordingDb(test, recorded), leadId);
    expect(recorded.length).toBeGreaterThan(0);
    let batches = 0;
    for (const statement of recorded) {
      if (/^\s*(insert|update|delete)/i.test(statement.sql)) continue;
      const nodes = await planNodes(test, statement);
      const why = `${name}: ${statement.sql}\n${JSON.stringify(nodes.map(describeNode))}`;
      const seqScans = nodes.filter((node) => node["Node Type"] === "Seq Scan" && BIG_TABLES.has(node["Relation Name"] ?? ""));
      expect(seqScans.filter((node) => !scans?.(statement.sql, node["Relation Name"]!)), why).toEqual([]);
      if (ordered && /order by/i.test(statement.sql) && nodes.some((node) => node["Relation Name"] === ordered)) {
        batches += 1;
        expect(nodes.filter((node) => node["Node Type"] === "Sort" || node["Node Type"] === "Incremental Sort"), why).toEqual([]);
      }
    }
    if (ordered) expect(batches).toBeGreaterThan(0);
  }, 120_000);
});
