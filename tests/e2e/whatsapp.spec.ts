import { expect, type Page, test } from "@playwright/test";
import { answerForWhatsapp, expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * WhatsApp as a channel (issue 25, decision 028) in Chromium on the production build:
 * - a visitor's tap on a listing's 'Falar pelo WhatsApp' goes through /whatsapp and lands on the
 *   listing's prefilled wa.me message (wa.me answered here by page routing); the reports count
 *   exactly that one tap — a bot following the same link adds nothing — in the summary and in the
 *   listing's row of the most-viewed table;
 * - the same works without JavaScript (plain links);
 * - 'Registrar conversa de WhatsApp' on the dashboard, by keyboard at 390 px: a bad name is
 *   refused with the spec's message, then name, phone and the listing become a lead with origin
 *   WhatsApp and status Novo.
 */

test.describe.configure({ mode: "serial" });

// Headless Chromium says "HeadlessChrome", which isbot rightly takes for a robot: the visitor's browser says what a person's would.
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

async function summaryValue(page: Page, label: string): Promise<number> {
  return Number((await page.locator(`[data-summary="${label}"] [data-value]`).textContent())?.trim());
}

/** The listing's row of 'Imóveis mais visualizados' (wide screens show the table). */
function mostViewedRow(page: Page, codigo: string) {
  return page.locator('[data-report-table="visualizacoes"] tbody tr', { hasText: codigo });
}

test("a visitor's tap on a listing's WhatsApp button is counted once and opens the listing's message; a bot's is not counted", async ({ page, browser }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAsAdmin(page);
  await page.goto("/crm/relatorios");
  const before = await summaryValue(page, "Contatos por WhatsApp");

  const visitorContext = await browser.newContext({ userAgent: CHROME });
  const redirects = await answerForWhatsapp(visitorContext);
  const visitor = await visitorContext.newPage();
  await visitor.goto("/imoveis");
  await visitor.getByRole("article").first().getByRole("link", { name: /Ver Detalhes/ }).click();
  await expect(visitor).toHaveURL(/\/imoveis\/[0-9a-f-]{36}$/);
  // A client-side navigation changes the URL before the new page renders: wait for the listing's
  // own button before reading its title (the list's heading was read once in CI).
  const link = visitor.getByRole("link", { name: "Falar pelo WhatsApp" });
  await expect(link).toBeVisible();
  const title = (await visitor.getByRole("heading", { level: 1 }).textContent())!;
  await expect(link).toHaveAttribute("rel", /\bnofollow\b/);
  const href = (await link.getAttribute("href"))!;
  const codigo = new URLSearchParams(href.split("?")[1]).get("imovel")!;
  expect(codigo).toBeTruthy();

  // A search engine's crawler following the link: sent on, not counted.
  const bot = await page.request.get(href, { headers: { "User-Agent": GOOGLEBOT }, maxRedirects: 0 });
  expect(bot.status()).toBe(302);

  const chatRequests: string[] = [];
  visitorContext.on("request", (request) => {
    if (request.url().startsWith("https://wa.me/")) chatRequests.push(request.url());
  });
  const [chat] = await Promise.all([visitor.waitForEvent("popup"), link.click()]);
  await expect.poll(() => chat.url()).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
  const text = new URL(chat.url()).searchParams.get("text")!;
  expect(text).toContain(`Olá! Tenho interesse no imóvel "${title}" (código ${codigo})`);
  expect(text).toContain(visitor.url());
  // The crawler was sent to the very same address.
  expect(bot.headers()["location"]).toBe(chat.url());
  expect(chatRequests).toEqual([chat.url()]);
  expect(redirects).toEqual([chat.url()]);

  await expect
    .poll(async () => {
      await page.reload();
      return summaryValue(page, "Contatos por WhatsApp");
    })
    .toBe(before + 1);
  // The listing's row shows once its page view is written (views are batched: up to 10 s).
  await expect
    .poll(
      async () => {
        await page.reload();
        const row = mostViewedRow(page, codigo);
        return (await row.count()) ? (await row.locator("td").nth(4).textContent())?.trim() : "no row yet";
      },
      { timeout: 30_000 },
    )
    .toBe("1");
  await expect(page.locator('[data-report-table="visualizacoes"] thead th').nth(4)).toHaveText("Contatos por WhatsApp");
  await visitorContext.close();
});

test("the WhatsApp buttons work without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await answerForWhatsapp(context);
  const page = await context.newPage();
  await page.goto("/");
  const [chat] = await Promise.all([page.waitForEvent("popup"), page.getByRole("main").getByRole("link", { name: /WhatsApp/ }).first().click()]);
  await expect.poll(() => chat.url()).toMatch(/^https:\/\/wa\.me\/\d+(\?text=|$)/);
  await context.close();
});

test("'Registrar conversa de WhatsApp' on the dashboard, by keyboard on a phone, creates a WhatsApp lead", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  await page.goto("/crm");
  await waitForHydration(page);
  const name = `Conversa Zap ${Date.now().toString(36)}`;

  const open = page.getByRole("button", { name: "Registrar conversa de WhatsApp" });
  await open.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Registrar conversa de WhatsApp" });
  await expect(dialog).toBeVisible();
  await expectFitsWindow(page, "dialog at 390 px");

  // A one-letter name: the spec's message, nothing saved.
  await dialog.getByLabel("Nome").focus();
  await page.keyboard.type("A");
  await page.keyboard.press("Tab");
  await page.keyboard.type("84987654321");
  await expect(dialog.getByLabel("Telefone (WhatsApp)")).toHaveValue("(84) 98765-4321");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Nome deve ter pelo menos 2 caracteres").first()).toBeVisible();

  await dialog.getByLabel("Nome").fill(name);
  // The listing: searched by the start of a code, chosen in the select, all by keyboard.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Buscar imóvel (código, título ou bairro)")).toBeFocused();
  const select = dialog.getByLabel("Imóvel", { exact: true });
  await expect.poll(() => select.locator("option").count()).toBeGreaterThan(1);
  const firstListing = (await select.locator("option").nth(1).textContent())!;
  const codigo = firstListing.split(" — ")[0];
  await page.keyboard.type(codigo);
  await expect.poll(async () => (await select.locator("option").allTextContents()).slice(1).every((text) => text.includes(codigo))).toBe(true);
  await page.keyboard.press("Tab");
  await expect(select).toBeFocused();
  await select.selectOption({ label: firstListing });
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Registrar lead" })).toBeFocused();
  await page.keyboard.press("Enter");

  await expect(page.getByText("Conversa registrada como lead (origem WhatsApp).")).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.getByRole("link", { name: "Abrir o lead registrado" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  const main = page.getByRole("main");
  await expect(main.getByText("WhatsApp", { exact: true }).first()).toBeVisible();
  await expect(main.getByText("Novo", { exact: true }).first()).toBeVisible();
  await expect(main.getByText(codigo).first()).toBeVisible();
});
