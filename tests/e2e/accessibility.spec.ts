import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * Automated accessibility checks (axe-core, WCAG 2 A and AA) on every screen, at phone and
 * desktop widths: labels bound to controls, names on buttons and links, contrast, landmarks.
 * Keyboard use and focus are covered by the feature tests (gallery arrows, menus, dialogs).
 */
async function expectNoViolations(page: Page, context: string) {
  // Cards fade in (spec §2): measure contrast once they are fully drawn, not mid-animation.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`,
  );
  expect(summary, `${context}\n${summary.join("\n")}`).toEqual([]);
}

for (const width of [390, 1280]) {
  test.describe(`accessibility at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("public pages", async ({ page }) => {
      const list = await (await page.request.get("/imoveis")).text();
      const detail = /href="(\/imoveis\/[0-9a-f-]{36})"/.exec(list)![1];
      for (const path of ["/", "/imoveis", detail, "/sobre", "/contato", "/privacidade", "/agendar-visita", "/favoritos", "/alertas", "/auth", "/nao-existe"]) {
        await page.goto(path);
        await waitForHydration(page);
        await expectNoViolations(page, path);
        // WCAG 1.4.10 (reflow): nothing makes the visitor scroll sideways.
        await expectFitsWindow(page, `${path} at ${width} px`);
      }
    });

    // A test of their own: the list above already fills most of a test's minute on a busy machine.
    test("neighbourhood pages", async ({ page }) => {
      for (const path of ["/imoveis/bairros", "/imoveis/bairro/ponta-negra", "/imoveis/bairro/bairro-que-nao-existe"]) {
        await page.goto(path);
        await waitForHydration(page);
        await expectNoViolations(page, path);
        await expectFitsWindow(page, `${path} at ${width} px`);
      }
    });

    test("dialogs on public pages", async ({ page }) => {
      await page.goto("/imoveis");
      await waitForHydration(page);
      await page.getByRole("link", { name: "Agendar Visita" }).click();
      await expect(page.getByRole("dialog", { name: "Agendar Visita" })).toBeVisible();
      await expectNoViolations(page, "booking dialog");
    });

    test("CRM pages and dialogs", async ({ page }) => {
      await signInAsAdmin(page);
      for (const path of ["/crm", "/crm/imoveis", "/crm/leads", "/crm/relatorios", "/crm/usuarios", "/crm/bairros", "/crm/avise-me", "/crm/proprietarios"]) {
        await page.goto(path);
        await waitForHydration(page);
        await expectNoViolations(page, path);
        // WCAG 1.4.10 (reflow): nothing makes the visitor scroll sideways.
        await expectFitsWindow(page, `${path} at ${width} px`);
      }
      await page.goto("/crm/imoveis");
      await waitForHydration(page);
      await page.getByRole("button", { name: "Novo Imóvel" }).click();
      await expect(page.getByRole("dialog", { name: "Novo Imóvel" })).toBeVisible();
      await expectNoViolations(page, "property dialog");
    });
  });
}
