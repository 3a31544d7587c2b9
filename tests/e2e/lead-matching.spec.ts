import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

test.describe.configure({ mode: "serial" });

async function expectNoViolations(page: Page, context: string) {
  // The answer's toast is the layout's (checked with it); measure the page once it has gone.
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(summary, `${context}\n${summary.join("\n")}`).toEqual([]);
}

/**
 * Issue 23 (docs/decisions/023) at 390 px: a buyer's profile on the lead page, the listings that
 * fit it with their reasons, one sent by e-mail, and that listing under 'Já enviados'.
 */
test.describe("lead matching", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("add a profile, see matches with reasons, send one by e-mail, see it in 'Já enviados'", async ({ page, browser }) => {
    const name = `Rafael Perfil ${Date.now().toString(36)}`;
    // A visitor's message makes the lead (with an e-mail).
    const visitorContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await visitorContext.route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }));
    const visitor = await visitorContext.newPage();
    await visitor.goto("/contato");
    await waitForHydration(visitor);
    await visitor.getByLabel("Nome").fill(name);
    await visitor.getByLabel("Telefone (WhatsApp)").fill("84977771234");
    await visitor.getByLabel("Email").fill("rafael@exemplo.com");
    await visitor.getByLabel("Mensagem").fill("Procuro um imóvel para comprar.");
    await Promise.all([visitor.waitForEvent("popup"), visitor.getByRole("button", { name: "Enviar Mensagem" }).click()]);
    await expect(visitor.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toBeVisible();
    await visitorContext.close();

    await signInAsAdmin(page);
    await page.goto(`/crm/leads?busca=${encodeURIComponent(name)}`);
    await page.getByRole("link", { name }).first().click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await waitForHydration(page);

    const section = page.getByRole("region", { name: "Perfil de busca" });
    await expect(section.getByText("Nenhum perfil de busca.")).toBeVisible();
    await section.getByRole("button", { name: "Adicionar perfil" }).click();
    const form = section.getByRole("form", { name: "Novo perfil de busca" });
    await form.getByText("Características obrigatórias").click();
    await expectFitsWindow(page, "the profile form");
    await form.screenshot({ path: "/tmp/matching-shots/profile-form-390.png" });
    await form.getByLabel("Finalidade").selectOption("venda");
    await form.getByLabel("Quartos (mínimo)").fill("2");
    await form.getByRole("button", { name: "Salvar perfil" }).click();
    await expect(page.getByText("Perfil de busca salvo!")).toBeVisible();

    const profile = section.getByTestId("lead-profile");
    await expect(profile.getByText("Venda · 2+ quartos")).toBeVisible();
    const first = profile.getByTestId("match").first();
    await expect(first).toBeVisible();
    // Reasons per criterion: the purpose always holds; the bedrooms line says ✓ or ✗.
    await expect(first.getByText("Venda ✓")).toBeVisible();
    await expect(first.getByText(/(quartos?|quartos não informados) [✓✗]/)).toBeVisible();
    await expectFitsWindow(page, "lead page with matches");
    await section.screenshot({ path: "/tmp/matching-shots/lead-matches-390.png" });
    await expectNoViolations(page, "lead page with a profile and matches");

    const title = (await first.getByRole("link").first().textContent())!.trim();
    const listingPath = (await first.getByRole("link").first().getAttribute("href"))!;
    await first.getByRole("button", { name: "Enviar por e-mail" }).click();
    await expect(page.getByText("Imóvel enviado por e-mail (na fila de envio).")).toBeVisible();
    const sent = section.getByTestId("sent-matches");
    await expect(sent.getByRole("link", { name: title })).toBeVisible();
    await expect(sent.getByText(/E-mail · /)).toBeVisible();
    await expect(page.getByRole("list", { name: "Histórico do lead" }).getByText(`Imóvel enviado por e-mail: ${title}`)).toBeVisible();

    // The other way: the listing's page of compatible leads names this lead, already sent.
    const leadUrl = page.url();
    await page.goto(`/crm${listingPath}/leads`);
    await expect(page.getByRole("heading", { level: 1, name: "Leads compatíveis" })).toBeVisible();
    const item = page.getByTestId("property-lead").filter({ hasText: name });
    await expect(item.getByText(/Enviado em/)).toBeVisible();
    await expectFitsWindow(page, "a listing's compatible leads");
    await expectNoViolations(page, "a listing's compatible leads");
    await page.screenshot({ path: "/tmp/matching-shots/property-leads-390.png", fullPage: true });
    await page.goto(leadUrl);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: "/tmp/matching-shots/lead-page-1280.png", fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "/tmp/matching-shots/lead-page-390.png", fullPage: true });

    // The demo listings were published this week: the dashboard names this lead among 'Novos matches'.
    await page.goto("/crm");
    const news = page.getByRole("region", { name: /Novos matches/ });
    await expect(news.getByRole("link", { name }).first()).toBeVisible();
    await news.screenshot({ path: "/tmp/matching-shots/dashboard-new-matches-390.png" });
  });
});
