import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * The neighbourhood pages (issue 22 item 8, decision 021) on the production build with the demo
 * listings: the broker edits Ponta Negra's text at 390 px in the CRM and a visitor — whose copy of
 * the page sat in the public page cache — sees it on the next request; the page passes axe at
 * phone and desktop widths and carries its canonical URL and JSON-LD; the property page links to
 * it; unknown neighbourhoods are the 404 page. With SCREENSHOT_DIR set, it leaves screenshots there.
 */

const SLUG = "ponta-negra";
const PAGE = `/imoveis/bairro/${SLUG}`;

async function expectNoViolations(page: Page, context: string) {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(summary, `${context}\n${summary.join("\n")}`).toEqual([]);
}

async function screenshot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** A visitor: a fresh context without cookies, so the public page cache answers. */
async function visit(browser: Browser, target: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const response = await page.goto(target);
  return { page, response, close: () => context.close() };
}

test.describe.configure({ mode: "serial" });

test("the broker edits a neighbourhood's text at 390 px and the visitor sees it on the next request", async ({ page, browser }) => {
  const text = `Ponta Negra tem a praia urbana mais conhecida de Natal e o Morro do Careca. Texto de teste ${Date.now()}.`;
  // The visitor's page first, twice: the second answer comes from the page cache.
  const first = await visit(browser, PAGE);
  expect(first.response?.status()).toBe(200);
  await expect(first.page.getByText(text)).toHaveCount(0);
  await first.close();
  const cached = await visit(browser, PAGE);
  expect(cached.response?.headers()["x-cache"]).toBe("HIT");
  await cached.close();

  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  await page.goto("/crm/bairros");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Bairros", level: 1 })).toBeVisible();
  await expectFitsWindow(page, "/crm/bairros at 390 px");
  const field = page.getByLabel("Texto sobre Ponta Negra");
  await field.fill(text);
  const card = page.locator("form").filter({ has: field });
  await card.getByRole("button", { name: "Salvar texto" }).click();
  await expect(page.getByText("Texto de Ponta Negra salvo.")).toBeVisible();
  await screenshot(page, "crm-bairros-390");

  // A text over the limit never reaches the server from the form (maxlength); a hand-made post gets 400.
  const refused = await page.request.post("/crm/bairros", { form: { slug: SLUG, text: "a".repeat(1501) }, headers: { Origin: new URL(page.url()).origin } });
  expect(refused.status()).toBe(400);

  const after = await visit(browser, PAGE);
  await expect(after.page.getByText(text)).toBeVisible();
  await after.close();
});

test("the neighbourhood page: its listings, counts, canonical URL and JSON-LD", async ({ page }) => {
  const response = await page.goto(PAGE);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Imóveis em Ponta Negra", level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/^Imóveis em Ponta Negra, Natal\/RN \| /);
  const origin = new URL(page.url()).origin;
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${origin}${PAGE}`);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", `${origin}${PAGE}`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /Ponta Negra/);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}");
  expect(jsonLd).toMatchObject({ "@type": "CollectionPage", about: { "@type": "Place", name: "Ponta Negra" }, mainEntity: { "@type": "ItemList" } });
  // The cards are the page's listings, as many as the JSON-LD says.
  const cards = page.locator('main ul a[href^="/imoveis/"]').filter({ hasNotText: /^$/ });
  const hrefs = new Set(await cards.evaluateAll((links) => links.map((link) => link.getAttribute("href")).filter((href) => /^\/imoveis\/[0-9a-f-]{36}$/.test(href ?? ""))));
  expect(hrefs.size).toBe(jsonLd.mainEntity.numberOfItems);
  expect(hrefs.size).toBeGreaterThan(0);
  await expect(page.getByRole("heading", { name: "Faixa de preços" })).toBeVisible();
  await expect(page.getByRole("table")).toBeVisible();
});

for (const width of [390, 1280]) {
  test(`the neighbourhood pages pass axe and fit the window at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const target of [PAGE, "/imoveis/bairros"]) {
      await page.goto(target);
      await waitForHydration(page);
      await expectNoViolations(page, `${target} at ${width} px`);
      await expectFitsWindow(page, `${target} at ${width} px`);
      await screenshot(page, `${target === PAGE ? "bairro" : "bairros-index"}-${width}`);
    }
    await signInAsAdmin(page);
    await page.goto("/crm/bairros");
    await waitForHydration(page);
    await expectNoViolations(page, `/crm/bairros at ${width} px`);
    await screenshot(page, `crm-bairros-${width}`);
  });
}

test("the index links to each page; the property page links to its neighbourhood; unknown ones are 404", async ({ page }) => {
  await page.goto("/imoveis/bairros");
  await waitForHydration(page);
  await page.getByRole("link", { name: /Ponta Negra/ }).first().click();
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));

  const firstCard = page.locator('main a[href^="/imoveis/"]').filter({ hasText: /\S/ });
  // The click navigates in the browser: the URL changes before the new page is drawn, so wait for
  // a listing's card rather than read the links at once.
  let detail: string | undefined;
  await expect
    .poll(async () => {
      detail = await firstCard.evaluateAll((links) => links.map((link) => link.getAttribute("href")).find((href) => /^\/imoveis\/[0-9a-f-]{36}$/.test(href ?? "")) ?? undefined);
      return detail !== undefined;
    })
    .toBe(true);
  await page.goto(detail!);
  await waitForHydration(page);
  await page.getByRole("link", { name: "Ponta Negra", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));

  for (const target of ["/imoveis/bairro/bairro-que-nao-existe", "/imoveis/bairro/Ponta%20Negra"]) {
    const response = await page.goto(target);
    expect(response?.status(), target).toBe(404);
    await expect(page.getByRole("heading", { name: "Bairro não encontrado" })).toBeVisible();
  }
  const sitemap = await (await page.request.get("/sitemap.xml")).text();
  expect(sitemap).toContain(`${PAGE}</loc>`);
});
