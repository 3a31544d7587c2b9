import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

test.describe.configure({ mode: "serial" });

/** A small but real PDF (header, one object, trailer). */
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** The broker's today plus some days, as YYYY-MM-DD (America/Fortaleza, UTC−3). */
function brokerDayPlus(days: number): string {
  const now = new Date(Date.now() - 3 * 3_600_000);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

async function expectNoViolations(page: Page, context: string) {
  // The toasts of the steps before are sliding out: measure the page once they are gone.
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 20_000 });
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(summary, context).toEqual([]);
}

test.describe("owners and captação on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("create an owner, link a listing with its captação and PDF, see the exclusivity warning", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/crm");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Abrir menu" }).click();
    await page.locator("#crm-menu").getByRole("link", { name: "Proprietários" }).click();
    await expect(page).toHaveURL(/\/crm\/proprietarios$/);
    await expect(page.getByRole("heading", { name: "Proprietários", level: 1 })).toBeVisible();

    const name = `Dona Captação ${Date.now()}`;
    await page.getByRole("button", { name: "Novo proprietário" }).click();
    await page.getByLabel("Nome completo", { exact: true }).fill(name);
    await page.getByLabel("Telefone", { exact: true }).fill("(84) 99876-5432");
    await page.getByLabel("E-mail", { exact: true }).fill("dona.captacao@example.com");
    // A wrong check digit is refused with the message beside the field.
    await page.getByLabel("CPF ou CNPJ", { exact: true }).fill("529.982.247-24");
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(page.getByText("CPF ou CNPJ inválido: confira os números").first()).toBeVisible();
    await page.getByLabel("CPF ou CNPJ", { exact: true }).fill("529.982.247-25");
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(page).toHaveURL(/\/crm\/proprietarios\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    await expectFitsWindow(page, "owner page");

    await page.getByLabel("Vincular imóvel pelo código", { exact: true }).fill("AP-PN-101");
    await page.getByRole("button", { name: "Vincular" }).click();
    const section = page.getByRole("region", { name: /AP-PN-101/ });
    await expect(section).toBeVisible();

    await section.getByLabel("Autorização", { exact: true }).selectOption("exclusiva");
    await section.getByLabel("Comissão combinada (%)", { exact: true }).fill("6");
    await section.getByLabel("Início", { exact: true }).fill(brokerDayPlus(-60));
    await section.getByLabel("Término", { exact: true }).fill(brokerDayPlus(20));
    await section.getByLabel("Onde estão as chaves", { exact: true }).fill("Com o porteiro");
    await section.getByRole("button", { name: "Salvar captação" }).click();
    await expect(page.getByText("Captação salva").first()).toBeVisible();

    await section.getByLabel("Arquivo PDF", { exact: true }).setInputFiles({ name: "autorizacao.pdf", mimeType: "application/pdf", buffer: PDF });
    await section.getByRole("button", { name: "Enviar PDF" }).click();
    const open = section.getByRole("link", { name: /Abrir autorização/ });
    await expect(open).toBeVisible();
    const href = await open.getAttribute("href");
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect(Buffer.from(await pdf.body()).equals(PDF)).toBe(true);
    await expectFitsWindow(page, "owner page with captação");
    await expectNoViolations(page, "owner page at 390 px");
    await page.screenshot({ path: test.info().outputPath("owner-390.png"), fullPage: true });

    await page.goto("/crm");
    await expect(page.getByTestId("exclusivity-warnings")).toContainText("Exclusividade de AP-PN-101 termina em 20 dias");
    await page.screenshot({ path: test.info().outputPath("dashboard-390.png"), fullPage: true });

    await page.goto(`/crm/proprietarios?q=${encodeURIComponent("98765432")}`);
    await expect(page.getByRole("link", { name })).toBeVisible();
    await expectFitsWindow(page, "owners list");
    await expectNoViolations(page, "owners list at 390 px");
    await page.screenshot({ path: test.info().outputPath("owners-390.png"), fullPage: true });

    // Signed out, the PDF is refused.
    const anonymous = await page.context().browser()!.newContext();
    const refused = await anonymous.request.get(new URL(href!, page.url()).toString());
    expect(refused.status()).toBe(401);
    await anonymous.close();
  });
});

test.describe("owners pages on a wide screen", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the list and an owner's page at 1280 px", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/crm/proprietarios");
    await waitForHydration(page);
    await page.screenshot({ path: test.info().outputPath("owners-1280.png"), fullPage: true });
    await page.getByRole("link", { name: /Dona Captação/ }).first().click();
    await expect(page.getByRole("region", { name: /AP-PN-101/ })).toBeVisible();
    await expectNoViolations(page, "owner page at 1280 px");
    await page.screenshot({ path: test.info().outputPath("owner-1280.png"), fullPage: true });
  });
});
