import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import ExcelJS from "exceljs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { type ServerProcess, startServerOnOwnDatabase, withClient } from "../helpers/server-process";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";

/**
 * The reports of issue 12 in a browser, and the property views as the production server counts
 * them:
 * - a lead added in the CRM shows in the report of the last 30 days; a custom range with nothing
 *   in it empties the tables; the charts are drawn (canvas) beside their tables;
 * - every download button gives a file (Playwright's download API): CSV with BOM and ';', XLSX
 *   that exceljs reads with the table's headers; the leads and properties lists too;
 * - views (own server process on port 3650): a visitor's page loads count, cached or not; bots,
 *   signed-in staff, HEAD, prefetches and unknown ids do not; the counts in memory are written
 *   at shutdown (SIGTERM), then read from the database;
 * - the deals' section (issue 24) on a phone: its figures, the commissions for an admin, its
 *   table or empty state, nothing wider than the window, and axe finds nothing.
 */

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

test.describe.configure({ mode: "serial" });

async function summaryValue(page: Page, label: string): Promise<string> {
  return (await page.locator(`[data-summary="${label}"] [data-value]`).textContent())?.trim() ?? "";
}

test.describe("reports page", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("picking a period changes the figures, charts and tables", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/crm/relatorios?periodo=30d");
    await waitForHydration(page);
    const before = Number(await summaryValue(page, "Leads recebidos"));

    // A lead added now, with an origin the table shows.
    await page.goto("/crm/leads");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Novo Lead" }).click();
    const dialog = page.getByRole("dialog", { name: "Novo Lead" });
    await dialog.getByLabel("Nome completo").fill(`Relatório E2E ${Date.now().toString(36)}`);
    await dialog.getByLabel("Telefone").fill("84977776666");
    await dialog.getByRole("button", { name: "Cadastrar Lead" }).click();
    await expect(page.getByText("Lead cadastrado com sucesso!")).toBeVisible();

    await page.goto("/crm/relatorios");
    await waitForHydration(page);
    await page.getByLabel("Período", { exact: true }).selectOption("30d");
    await expect(page).toHaveURL(/periodo=30d/);
    await expect.poll(() => summaryValue(page, "Leads recebidos")).toBe(String(before + 1));
    // Each chart is drawn, and its table follows it.
    for (const report of ["origens", "funil", "semanas"]) {
      const section = page.locator(`[data-report="${report}"]`);
      await expect(section.locator("canvas[role=img]")).toBeVisible();
      await expect(section.locator(`[data-report-table="${report}"]`)).toBeVisible();
    }
    const funnelFirstRow = page.locator('[data-report-table="funil"] tbody tr').first();
    await expect(funnelFirstRow).toContainText(String(before + 1));

    // A custom range long ago: nothing in it.
    await page.getByLabel("De", { exact: true }).fill("2001-01-01");
    await page.getByLabel("Até", { exact: true }).fill("2001-01-31");
    await page.getByRole("button", { name: "Aplicar" }).click();
    await expect(page).toHaveURL(/periodo=personalizado&de=2001-01-01&ate=2001-01-31/);
    await expect(page.getByTestId("period-range")).toContainText("01/01/2001 a 31/01/2001");
    await expect.poll(() => summaryValue(page, "Leads recebidos")).toBe("0");
    await expect(page.locator('[data-report-table="funil"] tbody tr').first()).toContainText("0");
    await expect(page.locator('[data-empty-table="vendas"]')).toBeVisible();
    await expect(page.locator('[data-empty-table="visualizacoes"]')).toBeVisible();
    // The period is in the URL: a reload keeps it.
    await page.reload();
    await expect(page.getByLabel("Período", { exact: true })).toHaveValue("personalizado");
  });

  test("every download button gives a CSV or XLSX file; so do the leads and properties lists", async ({ page }, testInfo) => {
    await signInAsAdmin(page);
    await page.goto("/crm/relatorios?periodo=ano");
    await waitForHydration(page);
    const links = page.locator("a[data-export]");
    const total = await links.count();
    expect(total).toBe(18); // 9 tables × 2 formats
    for (let index = 0; index < total; index++) {
      const link = links.nth(index);
      const format = (await link.getAttribute("data-export"))!;
      const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^relatorio-[a-z-]+-\\d{4}-\\d{2}-\\d{2}-a-\\d{4}-\\d{2}-\\d{2}\\.${format}$`));
      const file = testInfo.outputPath(download.suggestedFilename());
      await download.saveAs(file);
      await expectReadable(file, format);
    }

    // The list pages' buttons link here (added to those pages separately): the same downloads.
    for (const url of ["/crm/leads/exportar?status=novo", "/crm/imoveis/exportar?busca=casa"]) {
      for (const format of ["csv", "xlsx"]) {
        const [download] = await Promise.all([page.waitForEvent("download"), page.goto(`${url}&formato=${format}`).catch(() => null)]);
        const file = testInfo.outputPath(download.suggestedFilename());
        await download.saveAs(file);
        await expectReadable(file, format);
      }
    }
  });
});

test.describe("the deals' section on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("figures, commissions and table fit 390 px; axe finds nothing", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/crm/relatorios?periodo=ano");
    await waitForHydration(page);
    const section = page.getByRole("region", { name: "Negócios fechados" });
    await section.scrollIntoViewIfNeeded();
    await expect(section).toBeVisible();
    for (const label of ["Negócios fechados", "Desconto médio", "Propostas feitas", "Propostas aceitas", "Taxa de aceitação", "Mediana do 1º contato ao negócio", "Comissões recebidas", "Comissões a receber"]) {
      await expect(section.locator(`[data-summary="${label}"]`)).toBeVisible();
    }
    await expect(section.getByRole("link", { name: /CSV/ })).toBeVisible();
    await expect(section.locator('[data-report-cards="negocios"], [data-empty-table="negocios"]').first()).toBeVisible();
    await expectFitsWindow(page, "/crm/relatorios at 390 px");
    await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`)).toEqual([]);
  });
});

async function expectReadable(file: string, format: string) {
  const bytes = fs.readFileSync(file);
  if (format === "csv") {
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString("utf8").slice(1);
    expect(text.split("\r\n")[0]).toContain(";");
    expect(text.endsWith("\r\n")).toBe(true);
  } else {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(workbook.worksheets[0].getRow(1).cellCount).toBeGreaterThan(1);
  }
}

test.describe("property views counted by the production server", () => {
  const PORT = 3650;
  const ORIGIN = `http://localhost:${PORT}`;
  const ADMIN = { email: "admin@views.test", password: "senha-das-views-1" };
  let server: ServerProcess;
  let databaseUrl: string | undefined;
  let stopServer: () => Promise<void>;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    ({ server, databaseUrl, stop: stopServer } = await startServerOnOwnDatabase({
      port: PORT,
      label: "views",
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "warn", ...(process.env.TEST_DATABASE_URL ? { SEED_DEMO: "true" } : {}) },
      templateDir: TEMPLATE_DIR,
    }));
  });
  test.afterAll(async () => {
    await stopServer?.();
  });

  test("visitors count, cached pages too; bots, staff, HEAD, prefetches and unknown ids do not", async () => {
    test.setTimeout(120_000);
    const listing = await (await fetch(`${ORIGIN}/imoveis`, { headers: { "User-Agent": CHROME } })).text();
    const [viewed, other] = [...new Set([...listing.matchAll(/\/imoveis\/([0-9a-f-]{36})/g)].map((match) => match[1]))];
    expect(viewed).toBeTruthy();
    const signIn = await fetch(`${ORIGIN}/auth`, {
      method: "POST",
      headers: { Origin: ORIGIN },
      body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }),
      redirect: "manual",
    });
    expect(signIn.status).toBe(302);
    const staffCookie = signIn.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");

    const get = (url: string, headers: Record<string, string>, method = "GET") => fetch(`${ORIGIN}${url}`, { method, headers, redirect: "manual" });
    const cacheStates: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await get(`/imoveis/${viewed}`, { "User-Agent": CHROME });
      expect(response.status).toBe(200);
      cacheStates.push(response.headers.get("X-Cache") ?? "none");
      await response.arrayBuffer();
    }
    // At least the last was answered from the page cache, without the app: it counted too.
    expect(cacheStates.at(-1)).toBe("HIT");
    expect((await get(`/imoveis/${viewed}.data`, { "User-Agent": CHROME })).status).toBe(200); // a navigation inside the site
    for (const agent of ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "WhatsApp/2.23.20.0 A", "facebookexternalhit/1.1"]) {
      expect((await get(`/imoveis/${viewed}`, { "User-Agent": agent })).status).toBe(200);
    }
    expect((await get(`/imoveis/${viewed}`, { "User-Agent": CHROME, Cookie: staffCookie })).status).toBe(200);
    expect((await get(`/imoveis/${viewed}`, { "User-Agent": CHROME }, "HEAD")).status).toBe(200);
    expect((await get(`/imoveis/${other}.data`, { "User-Agent": CHROME, "Sec-Purpose": "prefetch" })).status).toBe(200);
    expect((await get("/imoveis/00000000-0000-4000-8000-000000000000", { "User-Agent": CHROME })).status).toBe(404);

    // SIGTERM: the server drains, writes the views it holds, closes the database.
    const exited = new Promise((resolve) => server.process.once("exit", resolve));
    server.process.kill("SIGTERM");
    expect(await exited).toBe(0);

    const query = "select property_id::text as property_id, sum(views)::int as views from property_views group by property_id";
    let rows: { property_id: string; views: number }[];
    if (databaseUrl) {
      rows = await withClient(databaseUrl, async (client) => (await client.query(query)).rows);
    } else {
      const db = new PGlite(path.resolve(`.tmp/server-${PORT}/pglite`));
      rows = (await db.query<{ property_id: string; views: number }>(query)).rows;
      await db.close();
    }
    expect(rows).toEqual([{ property_id: viewed, views: 4 }]);
  });
});
