import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { pdfText } from "../helpers/pdf-text";
import { signInAsAdmin, waitForHydration } from "./helpers";

/**
 * The ficha do imóvel (issue 22 item 6) as a visitor and a broker get it: the link on the property
 * page and in the CRM's table download an A4 PDF whose text holds the listing, the broker and the
 * listing's address on the site.
 */

test.describe.configure({ mode: "serial" });

const SHOTS = ".tmp/shots";
fs.mkdirSync(SHOTS, { recursive: true });

async function download(page: Page, link: ReturnType<Page["getByRole"]>) {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const bytes = fs.readFileSync((await file.path())!);
  return { name: file.suggestedFilename(), bytes };
}

test("a visitor downloads the ficha from the property page", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/imoveis");
  const href = await page.locator('a[href^="/imoveis/"]').evaluateAll((links) =>
    links.map((link) => link.getAttribute("href")!).find((value) => /^\/imoveis\/[0-9a-f-]{36}$/.test(value)),
  );
  expect(href).toBeTruthy();
  await page.goto(href!);
  const title = (await page.getByRole("heading", { level: 1 }).textContent())!.trim();
  const creci = (await page.getByText(/^CRECI/).first().textContent())!.trim();
  const link = page.getByRole("link", { name: "Baixar ficha (PDF)" });
  await expect(link).toHaveAttribute("download", "");
  await expect(link).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/ficha-property-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(link).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/ficha-property-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  const answer = await page.request.get((await link.getAttribute("href"))!);
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/pdf");

  const { name, bytes } = await download(page, link);
  expect(name).toMatch(/^ficha-[A-Z0-9-]+\.pdf$/);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const { pages, text } = await pdfText(new Uint8Array(bytes));
  expect(pages.length).toBeGreaterThanOrEqual(1);
  expect(pages.length).toBeLessThanOrEqual(2);
  expect(text).toContain(title);
  expect(text).toContain(creci);
  expect(text).toMatch(/R\$ [\d.]+|Sob consulta/);
  // The listing's address on the site (PUBLIC_URL is this server's), for the QR code and the reader.
  expect(text).toContain(`${new URL(page.url()).origin}${href}`);
});

test("a broker downloads the ficha from the CRM's properties table, which still fits 1280 px", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsAdmin(page);
  await page.goto("/crm/imoveis");
  await waitForHydration(page);
  const table = page.locator("table");
  const link = table.getByRole("link", { name: /^Baixar ficha \(PDF\) de / }).first();
  await expect(link).toBeVisible();
  const strip = await table.evaluate((element) => ({ scroll: element.parentElement!.scrollWidth, client: element.parentElement!.clientWidth }));
  expect(strip.scroll, "the table scrolls sideways at 1280 px").toBeLessThanOrEqual(strip.client);
  await page.screenshot({ path: `${SHOTS}/ficha-crm-1280.png` });

  const answer = await page.request.get((await link.getAttribute("href"))!);
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
  const { name, bytes } = await download(page, link);
  expect(name).toMatch(/^ficha-[A-Z0-9-]+\.pdf$/);
  const { text } = await pdfText(new Uint8Array(bytes));
  const codigo = name.replace(/^ficha-|\.pdf$/g, "");
  expect(text).toContain(`Código ${codigo}`);
  expect(text).toMatch(/CRECI/);
});
