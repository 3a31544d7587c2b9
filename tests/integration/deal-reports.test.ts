import ExcelJS from "exceljs";
import { parse } from "csv-parse/sync";
import { and, count, eq, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, deals, proposals, settings } from "~/db/schema";
import { type Period, parsePeriod } from "~/features/reports/period";
import { loadReport } from "~/features/reports/reports.server";
import { reportTables } from "~/features/reports/tables";
import { loader as reportExportLoader } from "~/routes/crm-reports-export";
import { loader as reportsLoader } from "~/routes/crm-reports";
import { context } from "../helpers/authorization";
import { createSignedInUser, insertLead, insertProperty, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The deals' figures of /crm/relatorios (issue 24, item 4) on seeded deals and proposals with
 * known days: stated by hand for March 2025, and for several periods checked against SQL written
 * here independently of deals-report.server.ts (broker days by `at time zone`, the discount as
 * (price − final) / price, medians computed in JS). An undone deal, deals on a period's first and
 * last day, a proposal made at 23:30 in Natal (already the next day in UTC), a received and an
 * overdue commission. The 'negocios' download is read back (CSV with csv-parse, XLSX with exceljs).
 */

const custom = (from: string, to: string) => {
  const result = parsePeriod(new URLSearchParams({ periodo: "personalizado", de: from, ate: to }));
  if (!result.ok) throw new Error(result.message);
  return result.period;
};
/** "Today" for the receivable commissions: 15 April 2025 in Natal. */
const NOW = new Date("2025-04-15T15:00:00Z");
const TODAY = "2025-04-15";

describe.each(DATABASE_KINDS)("deal reports on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;
  let corretor: TestUser;
  const exec = async <T = Record<string, unknown>>(query: SQL) => ((await test.runtime.db.execute(query)) as unknown as { rows: T[] }).rows;

  type Seed = {
    codigo: string;
    purpose: "venda" | "aluguel";
    price: number;
    leadCreated: string;
    leadName: string;
    proposalAt: string;
    proposalStatus: "em_negociacao" | "aceita" | "recusada" | "expirada";
    deal?: { closedOn: string; finalCents: number; commissionCents: number; status: "a_receber" | "recebida"; due?: string; paid?: string; undone?: boolean };
  };
  const seed = async (row: Seed) => {
    const property = await insertProperty(test.runtime, { codigo: row.codigo, title: `Imóvel ${row.codigo}`, price: row.price, purpose: row.purpose });
    const lead = await insertLead(test.runtime, { full_name: row.leadName, created_at: new Date(row.leadCreated), property_id: property.id });
    const [proposal] = await test.runtime.db
      .insert(proposals)
      .values({ lead_id: lead.id, property_id: property.id, kind: row.purpose, status: row.proposalStatus, amount_cents: row.deal?.finalCents ?? 100_000_00, valid_until: "2025-12-31", created_at: new Date(row.proposalAt) })
      .returning();
    if (!row.deal) return;
    await test.runtime.db.insert(deals).values({
      proposal_id: proposal.id,
      lead_id: lead.id,
      property_id: property.id,
      kind: row.purpose,
      final_value_cents: row.deal.finalCents,
      closed_on: row.deal.closedOn,
      commission_percent: 6,
      commission_cents: row.deal.commissionCents,
      commission_status: row.deal.status,
      commission_due_on: row.deal.due ?? null,
      commission_paid_on: row.deal.paid ?? null,
      undone_at: row.deal.undone ? new Date("2025-03-20T12:00:00Z") : null,
    });
  };

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    admin = await createSignedInUser(test.runtime, "admin");
    corretor = await createSignedInUser(test.runtime, "corretor");
    // March 2025's first and last day; lead created 30/03 23:30 in Natal (31/03 in UTC): 1 day.
    await seed({ codigo: "NEG-1", purpose: "venda", price: 500000, leadCreated: "2025-02-10T12:00:00Z", leadName: "Cliente Um", proposalAt: "2025-02-20T12:00:00Z", proposalStatus: "aceita", deal: { closedOn: "2025-03-01", finalCents: 475_000_00, commissionCents: 28_500_00, status: "a_receber", due: "2025-03-20" } });
    await seed({ codigo: "NEG-2", purpose: "aluguel", price: 2500, leadCreated: "2025-03-31T02:30:00Z", leadName: "Cliente Dois", proposalAt: "2025-03-31T12:00:00Z", proposalStatus: "aceita", deal: { closedOn: "2025-03-31", finalCents: 2_400_00, commissionCents: 2_400_00, status: "recebida", paid: "2025-04-02" } });
    // Undone: in no figure.
    await seed({ codigo: "NEG-3", purpose: "venda", price: 300000, leadCreated: "2025-03-01T12:00:00Z", leadName: "Cliente Três", proposalAt: "2025-03-05T12:00:00Z", proposalStatus: "aceita", deal: { closedOn: "2025-03-15", finalCents: 200_000_00, commissionCents: 12_000_00, status: "a_receber", due: "2025-03-30", undone: true } });
    // The previous month's last day; a listing with no price has no discount.
    await seed({ codigo: "NEG-4", purpose: "venda", price: 0, leadCreated: "2025-01-20T12:00:00Z", leadName: "Cliente Quatro", proposalAt: "2025-03-01T02:59:00Z", proposalStatus: "aceita", deal: { closedOn: "2025-02-28", finalCents: 350_000_50, commissionCents: 21_000_03, status: "recebida", paid: "2025-03-10" } });
    // April: above the asking price (a negative discount); receivable, not yet due.
    await seed({ codigo: "NEG-5", purpose: "venda", price: 800000, leadCreated: "2025-01-05T12:00:00Z", leadName: "Cliente Cinco", proposalAt: "2025-04-01T03:30:00Z", proposalStatus: "aceita", deal: { closedOn: "2025-04-01", finalCents: 820_000_00, commissionCents: 49_200_00, status: "a_receber", due: "2025-05-01" } });
    // Receivable with no due day: never overdue.
    await seed({ codigo: "NEG-6", purpose: "venda", price: 400000, leadCreated: "2025-04-01T12:00:00Z", leadName: "Cliente Seis", proposalAt: "2025-04-02T12:00:00Z", proposalStatus: "aceita", deal: { closedOn: "2025-04-10", finalCents: 380_000_00, commissionCents: 22_800_00, status: "a_receber" } });
    // Proposals with no deal.
    await seed({ codigo: "NEG-7", purpose: "venda", price: 600000, leadCreated: "2025-03-02T12:00:00Z", leadName: "Cliente Sete", proposalAt: "2025-03-10T12:00:00Z", proposalStatus: "recusada" });
    await seed({ codigo: "NEG-8", purpose: "aluguel", price: 3000, leadCreated: "2025-03-02T12:00:00Z", leadName: "Cliente Oito", proposalAt: "2025-04-01T01:00:00Z", proposalStatus: "em_negociacao" });
    await seed({ codigo: "NEG-9", purpose: "venda", price: 600000, leadCreated: "2025-02-02T12:00:00Z", leadName: "Cliente Nove", proposalAt: "2025-02-15T12:00:00Z", proposalStatus: "expirada" });
  });

  afterAll(async () => {
    await test.stop();
  });

  /** The figures of a range by SQL of its own: calendar days, not instants. */
  async function expected(range: { from: string; to: string }) {
    const standing = sql`d.undone_at is null and d.closed_on >= ${range.from}::date and d.closed_on <= ${range.to}::date`;
    const [closed] = await exec<{ n: number; discount: number | null }>(
      sql`select count(*)::int as n, avg((p.price - d.final_value_cents / 100.0) / nullif(p.price, 0))::float8 as discount
          from deals d join properties p on p.id = d.property_id where ${standing}`,
    );
    const days = (await exec<{ days: number }>(sql`select d.closed_on - (l.created_at at time zone 'America/Fortaleza')::date as days from deals d join leads l on l.id = d.lead_id where ${standing}`))
      .map((row) => Number(row.days))
      .sort((a, b) => a - b);
    const median = days.length === 0 ? null : days.length % 2 ? days[(days.length - 1) / 2] : (days[days.length / 2 - 1] + days[days.length / 2]) / 2;
    const [made] = await exec<{ n: number; accepted: number }>(
      sql`select count(*)::int as n, sum(case when status = 'aceita' then 1 else 0 end)::int as accepted from proposals
          where (created_at at time zone 'America/Fortaleza')::date between ${range.from}::date and ${range.to}::date`,
    );
    const [received] = await exec<{ cents: string | null }>(
      sql`select sum(commission_cents)::text as cents from deals where undone_at is null and commission_status = 'recebida' and commission_paid_on between ${range.from}::date and ${range.to}::date`,
    );
    const n = Number(made.n);
    const accepted = Number(made.accepted ?? 0);
    return {
      closedDeals: Number(closed.n),
      averageDiscount: closed.discount === null ? null : Number(closed.discount),
      proposals: n,
      proposalsAccepted: accepted,
      acceptanceRate: n === 0 ? null : accepted / n,
      medianDaysToDeal: median,
      commissionReceived: Number(received.cents ?? 0) / 100,
    };
  }

  const PERIODS: Period[] = [custom("2025-03-01", "2025-03-31"), custom("2025-04-01", "2025-04-30"), custom("2025-01-01", "2025-03-31"), custom("2025-03-31", "2025-03-31"), custom("2025-02-28", "2025-04-10")];

  it.each(PERIODS.map((period) => [`${period.from} a ${period.to}`, period] as const))("every figure of %s and its previous period equals its SQL count", async (_label, period) => {
    const { summary } = await loadReport(test.runtime.db, period, { commissions: true, now: NOW });
    const [current, previous] = [await expected(period), await expected(period.previous)];
    for (const key of ["closedDeals", "proposals", "proposalsAccepted", "acceptanceRate", "medianDaysToDeal", "commissionReceived"] as const) {
      expect(summary[key], key).toEqual({ current: current[key], previous: previous[key] });
    }
    expect(summary.averageDiscount.current ?? 0).toBeCloseTo(current.averageDiscount ?? 0, 12);
    expect(summary.averageDiscount.current === null).toBe(current.averageDiscount === null);
    expect(summary.averageDiscount.previous ?? 0).toBeCloseTo(previous.averageDiscount ?? 0, 12);
  });

  it("states March 2025 by hand: two deals (first and last day), the undone one left out", async () => {
    const report = await loadReport(test.runtime.db, PERIODS[0], { commissions: true, now: NOW });
    expect(report.summary.closedDeals).toEqual({ current: 2, previous: 1 });
    expect(report.summary.averageDiscount.current).toBeCloseTo(0.045, 12); // 5 % and 4 %
    expect(report.summary.averageDiscount.previous).toBeNull(); // NEG-4 has no asking price
    // NEG-2, NEG-3, NEG-7 and NEG-8 (23:00 of 31/03 in Natal); NEG-4's (23:59 of 28/02) is February's.
    expect(report.summary.proposals).toEqual({ current: 4, previous: 3 });
    expect(report.summary.proposalsAccepted).toEqual({ current: 2, previous: 2 });
    expect(report.summary.acceptanceRate.current).toBe(0.5);
    // NEG-1: 10/02 → 01/03 = 19 days; NEG-2: 30/03 → 31/03 = 1 day.
    expect(report.summary.medianDaysToDeal).toEqual({ current: 10, previous: 39 });
    expect(report.summary.commissionReceived).toEqual({ current: 21_000.03, previous: 0 });
    expect(report.deals.map((row) => [row.closedOn, row.codigo, row.leadName, row.askingPrice, row.finalValue, row.commission, row.commissionStatus])).toEqual([
      ["2025-03-01", "NEG-1", "Cliente Um", 500000, 475000, 28500, "a_receber"],
      ["2025-03-31", "NEG-2", "Cliente Dois", 2500, 2400, 2400, "recebida"],
    ]);
  });

  it("commission receivable today vs received: SQL of its own, overdue by due day before today", async () => {
    const { summary } = await loadReport(test.runtime.db, PERIODS[1], { commissions: true, now: NOW });
    const [row] = await exec<{ cents: string; n: number; overdue: number; overdue_cents: string }>(
      sql`select sum(commission_cents)::text as cents, count(*)::int as n,
            sum(case when commission_due_on < ${TODAY}::date then 1 else 0 end)::int as overdue,
            coalesce(sum(case when commission_due_on < ${TODAY}::date then commission_cents else 0 end), 0)::text as overdue_cents
          from deals where undone_at is null and commission_status = 'a_receber'`,
    );
    expect(summary.commissionReceivable).toEqual({ amount: Number(row.cents) / 100, deals: Number(row.n), overdue: Number(row.overdue), overdueAmount: Number(row.overdue_cents) / 100 });
    // By hand: NEG-1, NEG-5 and NEG-6 owed; only NEG-1 overdue (NEG-3 was undone).
    expect(summary.commissionReceivable).toEqual({ amount: 100_500, deals: 3, overdue: 1, overdueAmount: 28_500 });
    expect(summary.commissionReceived).toEqual({ current: 2400, previous: 21_000.03 });
  });

  it("without commissions: no commission figure, and the table has no commission column", async () => {
    const report = await loadReport(test.runtime.db, PERIODS[0], { commissions: false, now: NOW });
    expect(report.summary.commissionReceived).toBeNull();
    expect(report.summary.commissionReceivable).toBeNull();
    expect(report.deals.every((row) => row.commission === null && row.commissionStatus === null)).toBe(true);
    const table = reportTables(report).negocios;
    expect(table.columns.map((column) => column.header)).toEqual(["Fechamento", "Código", "Imóvel", "Cliente", "Finalidade", "Preço anunciado (R$)", "Valor final (R$)", "Desconto"]);
    expect(reportTables(report).resumo.rows.map((row) => row[0]).filter((label) => String(label).startsWith("Comiss"))).toEqual([]);
  });

  const exportOf = async (user: TestUser, format: "csv" | "xlsx") => {
    const response = await reportExportLoader({ request: makeRequest(`/crm/relatorios/exportar?relatorio=negocios&formato=${format}&periodo=personalizado&de=2025-03-01&ate=2025-03-31`, { cookie: user.cookie }), params: {}, context } as never);
    expect(response.status).toBe(200);
    return response;
  };
  const audits = async () => (await test.runtime.db.select({ n: count() }).from(audit_log).where(eq(audit_log.action, "deal.export")))[0].n;

  it("the 'negocios' download, CSV and XLSX, read back; audited", async () => {
    const before = await audits();
    const csv = await exportOf(admin, "csv");
    expect(csv.headers.get("Content-Disposition")).toBe('attachment; filename="relatorio-negocios-2025-03-01-a-2025-03-31.csv"');
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await csv.arrayBuffer());
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = parse(text.slice(1), { delimiter: ";" }) as string[][];
    expect(rows).toEqual([
      ["Fechamento", "Código", "Imóvel", "Cliente", "Finalidade", "Preço anunciado (R$)", "Valor final (R$)", "Desconto", "Comissão (R$)", "Situação da comissão"],
      ["01/03/2025", "NEG-1", "Imóvel NEG-1", "Cliente Um", "Venda", "500000,00", "475000,00", "5,00%", "28500,00", "A receber"],
      ["31/03/2025", "NEG-2", "Imóvel NEG-2", "Cliente Dois", "Aluguel", "2500,00", "2400,00", "4,00%", "2400,00", "Recebida"],
    ]);
    const xlsx = await exportOf(admin, "xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const values = workbook.worksheets[0].getSheetValues().slice(1).map((row) => (row as unknown[]).slice(1));
    expect(values[0]).toEqual(rows[0]);
    expect(values[1]).toEqual([new Date("2025-03-01T00:00:00Z"), "NEG-1", "Imóvel NEG-1", "Cliente Um", "Venda", 500000, 475000, expect.closeTo(0.05, 12), 28500, "A receber"]);
    expect(values[2][0]).toEqual(new Date("2025-03-31T00:00:00Z"));
    expect(values.length).toBe(3);
    expect((await audits()) - before).toBe(2);
    const [entry] = await test.runtime.db.select().from(audit_log).where(and(eq(audit_log.action, "deal.export"), eq(audit_log.actor_id, admin.id))).limit(1);
    // Codes and counts only: no client's name, no amount.
    expect(JSON.stringify(entry.details)).not.toMatch(/Cliente|475000/);
  });

  it("a corretor gets the table without commissions, unless the settings open them", async () => {
    const headers = async () => (parse(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await (await exportOf(corretor, "csv")).arrayBuffer()).slice(1), { delimiter: ";" }) as string[][])[0];
    expect(await headers()).not.toContain("Comissão (R$)");
    const page = (await reportsLoader({ request: makeRequest("/crm/relatorios?periodo=personalizado&de=2025-03-01&ate=2025-03-31", { cookie: corretor.cookie }), params: {}, context } as never)) as { report: { summary: Record<string, unknown> } };
    expect(page.report.summary.commissionReceivable).toBeNull();
    await test.runtime.db.insert(settings).values({ key: "deal_settings", value: { salePercent: 6, rentFirstRentPercent: 100, corretorSeesCommissions: true } });
    try {
      expect(await headers()).toContain("Comissão (R$)");
    } finally {
      await test.runtime.db.delete(settings).where(eq(settings.key, "deal_settings"));
    }
  });
});
