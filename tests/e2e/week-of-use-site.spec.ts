import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectFitsWindow, waitForHydration } from "./helpers";

/**
 * Issue 21 on the public site:
 * - the navbar shows the whole site name at 360, 390 and 1280 px (two lines on a phone if need
 *   be), inside a bar of the same height, with every control in the window;
 * - a 'Telefone inválido' toast goes away once the form is corrected and sent: the visit booking
 *   page, the property page's booking dialog and the contact form (its own error there).
 */

const SHOTS = path.resolve(".tmp/screens");
const SITE_NAME = "Corretor Exemplo Imóveis";

test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

for (const width of [360, 390, 1280]) {
  test(`the navbar shows the whole site name at ${width} px`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 }, locale: "pt-BR" });
    const page = await context.newPage();
    await page.goto("/");
    await waitForHydration(page);
    const name = page.locator('header nav > a[href="/"] > span').last();
    await expect(name).toHaveText(SITE_NAME);
    const box = await name.evaluate((element) => ({ scrollW: element.scrollWidth, clientW: element.clientWidth, scrollH: element.scrollHeight, clientH: element.clientHeight }));
    expect(box.scrollW, "cut sideways").toBeLessThanOrEqual(box.clientW);
    expect(box.scrollH, "cut below").toBeLessThanOrEqual(box.clientH);
    await expectFitsWindow(page, `home at ${width} px`);
    const bar = (await page.locator("header nav").first().boundingBox())!;
    expect(bar.height, "the bar keeps its height").toBeLessThanOrEqual(64.5);
    for (const control of await page.locator("header nav a, header nav button").filter({ visible: true }).all()) {
      const rect = (await control.boundingBox())!;
      expect(rect.x, "inside the window").toBeGreaterThanOrEqual(0);
      expect(rect.x + rect.width, "inside the window").toBeLessThanOrEqual(width + 0.5);
      expect(rect.y, "inside the bar").toBeGreaterThanOrEqual(bar.y - 0.5);
      expect(rect.y + rect.height, "inside the bar").toBeLessThanOrEqual(bar.y + bar.height + 0.5);
    }
    await page.screenshot({ path: path.join(SHOTS, `navbar-${width}.png`), clip: { x: 0, y: 0, width, height: 120 } });
    await context.close();
  });
}

/** The toasts on screen (sonner marks one on its way out data-removed="true"). */
const toasts = (page: Page) => page.locator('[data-sonner-toast]:not([data-removed="true"])');

for (const width of [390, 1280]) {
  test.describe(`toasts at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("the booking page: the phone error goes once the corrected booking is sent", async ({ page }) => {
      await page.goto("/agendar-visita");
      await waitForHydration(page);
      await page.getByLabel("Nome completo").fill("Visitante Corrigido");
      await page.getByLabel("Telefone (WhatsApp)").fill("1234");
      await page.getByRole("button", { name: "Agendar Visita" }).click();
      await expect(toasts(page).filter({ hasText: "Telefone inválido" })).toBeVisible();
      await page.getByLabel("Telefone (WhatsApp)").fill("84999991234");
      await page.getByRole("button", { name: "Agendar Visita" }).click();
      await expect(toasts(page).filter({ hasText: "Agendamento realizado com sucesso!" })).toBeVisible();
      // Gone within a second of the success toast, not at the end of its own 4 s: the dismissal
      // is sonner's next animation frame, which a loaded machine can hold back a little.
      await expect(toasts(page).filter({ hasText: "Telefone inválido" })).toHaveCount(0, { timeout: 1_000 });
      await page.screenshot({ path: path.join(SHOTS, `toast-agendar-${width}.png`) });
    });

    test("the property page's booking dialog: the same", async ({ page }) => {
      await page.goto("/imoveis");
      await page.locator('a[href^="/imoveis/"]').first().click();
      await waitForHydration(page);
      await page.getByRole("link", { name: "Agendar Visita" }).click();
      const dialog = page.getByRole("dialog", { name: "Agendar Visita" });
      await dialog.getByLabel("Nome completo").fill("Visitante Corrigido");
      await dialog.getByLabel("Telefone (WhatsApp)").fill("1234");
      await dialog.getByRole("button", { name: "Agendar Visita" }).click();
      await expect(toasts(page).filter({ hasText: "Telefone inválido" })).toBeVisible();
      await dialog.getByLabel("Telefone (WhatsApp)").fill("84999991234");
      await dialog.getByRole("button", { name: "Agendar Visita" }).click();
      await expect(toasts(page).filter({ hasText: "Agendamento realizado com sucesso!" })).toBeVisible();
      // Gone within a second of the success toast, not at the end of its own 4 s: the dismissal
      // is sonner's next animation frame, which a loaded machine can hold back a little.
      await expect(toasts(page).filter({ hasText: "Telefone inválido" })).toHaveCount(0, { timeout: 1_000 });
      await page.screenshot({ path: path.join(SHOTS, `toast-imovel-${width}.png`) });
    });

    test("the contact form: its error goes once the corrected message is sent", async ({ page, context }) => {
      await context.route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }));
      await page.goto("/contato");
      await waitForHydration(page);
      await page.getByLabel("Nome").fill("Cliente Corrigido");
      await page.getByLabel("Telefone (WhatsApp)").fill("1234");
      await page.getByLabel("Email").fill("cliente@exemplo.com");
      await page.getByLabel("Mensagem").fill("Procuro apartamento de 3 quartos em Capim Macio.");
      await page.getByRole("button", { name: "Enviar Mensagem" }).click();
      await expect(toasts(page).filter({ hasText: "Telefone inválido" })).toBeVisible();
      await page.getByLabel("Telefone (WhatsApp)").fill("84988887777");
      await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: "Enviar Mensagem" }).click()]);
      await expect(toasts(page).filter({ hasText: "Mensagem enviada!" })).toBeVisible();
      // Gone within a second of the success toast, not at the end of its own 4 s: the dismissal
      // is sonner's next animation frame, which a loaded machine can hold back a little.
      await expect(toasts(page).filter({ hasText: "Telefone inválido" })).toHaveCount(0, { timeout: 1_000 });
    });
  });
}
