import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { pdfText } from "../helpers/pdf-text";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * A negotiation in the browser (issue 24, decision 026): a proposal from the lead page, the
 * owner's counter-offer, acceptance, a deal with a split commission — and, from that one click,
 * the listing gone from the public site's list and the lead convertido. The printable proposal
 * holds both names, the amounts and the CRECI. Then the listing's 'Negociações', the dashboard,
 * the pages at 390 px, and the deal undone (the listing back on the site for the other specs).
 */

test.describe.configure({ mode: "serial" });

const CODIGO = "CA-CM-202";
const TITLE = "Casa térrea com piscina em Capim Macio";
const PUBLIC_LIST = "/imoveis?tipo=casa&finalidade=venda&bairro=Capim%20Macio";
const stamp = Date.now().toString(36);
const BUYER = `Rafaela Compradora ${stamp}`;
const OWNER = `Otávio Vendedor ${stamp}`;
let leadUrl = "";

async function expectNoViolations(page: Page, context: string) {
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 20_000 });
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(summary, context).toEqual([]);
}

/** Whether an anonymous visitor sees the listing in the site's list (a browser of its own: no session, the public cache). */
async function publiclyListed(browser: Browser): Promise<boolean> {
  const context = await browser.newContext();
  const visitor = await context.newPage();
  const response = await visitor.goto(PUBLIC_LIST);
  expect(response?.status()).toBe(200);
  const count = await visitor.getByRole("link", { name: new RegExp(TITLE) }).count();
  await context.close();
  return count > 0;
}

test.describe("a negotiation on a wide screen", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("proposal, counter-offer, acceptance and a deal with a split; the listing leaves the site and the lead is convertido at once", async ({ page, browser }) => {
    // A whole negotiation with four axe runs and two extra browsers: longer than the default minute on a busy machine.
    test.setTimeout(180_000);
    expect(await publiclyListed(browser)).toBe(true);

    // The buyer writes through the site's contact form.
    const visitorContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await visitorContext.route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }));
    const visitor = await visitorContext.newPage();
    await visitor.goto("/contato");
    await waitForHydration(visitor);
    await visitor.getByLabel("Nome").fill(BUYER);
    await visitor.getByLabel("Telefone (WhatsApp)").fill("84988887777");
    await visitor.getByLabel("Email").fill("rafaela@exemplo.com");
    await visitor.getByLabel("Mensagem").fill(`Tenho interesse na casa ${CODIGO}.`);
    await Promise.all([visitor.waitForEvent("popup"), visitor.getByRole("button", { name: "Enviar Mensagem" }).click()]);
    await expect(visitor.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toBeVisible();
    await visitorContext.close();

    await signInAsAdmin(page);
    // The listing's owner, so that the proposal names both parties.
    await page.goto("/crm/proprietarios");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Novo proprietário" }).click();
    await page.getByLabel("Nome completo", { exact: true }).fill(OWNER);
    await page.getByRole("button", { name: "Cadastrar" }).click();
    await expect(page).toHaveURL(/\/crm\/proprietarios\/[0-9a-f-]{36}$/);
    await waitForHydration(page);
    await page.getByLabel("Vincular imóvel pelo código", { exact: true }).fill(CODIGO);
    await page.getByRole("button", { name: "Vincular" }).click();
    await expect(page.getByRole("region", { name: new RegExp(CODIGO) })).toBeVisible();

    await page.goto("/crm/leads");
    await page.getByRole("link", { name: BUYER }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: BUYER })).toBeVisible();
    await waitForHydration(page);
    leadUrl = new URL(page.url()).pathname;
    const section = page.getByRole("region", { name: "Negociações" });

    // 1. The proposal: R$ 1.150.000 (à vista + financiamento + FGTS), valid for ten days.
    await section.getByRole("button", { name: "Nova proposta" }).click();
    const form = section.getByRole("form", { name: "Nova proposta" });
    await form.getByLabel("Código do imóvel", { exact: true }).fill(CODIGO.toLowerCase());
    // A value that is not money is refused before anything is sent.
    await form.getByLabel("Valor oferecido (R$)", { exact: true }).fill("");
    await form.getByRole("button", { name: "Registrar proposta" }).click();
    await expect(form.getByRole("alert")).toHaveText("Informe um valor válido (ex.: 540.000,00)");
    await form.getByLabel("Valor oferecido (R$)", { exact: true }).fill("1150000,00");
    await expect(form.getByLabel("Valor oferecido (R$)", { exact: true })).toHaveValue("1.150.000,00");
    await form.getByLabel("À vista (R$)", { exact: true }).fill("300000,00");
    await form.getByLabel("Financiamento (R$)", { exact: true }).fill("800000,00");
    await form.getByLabel("FGTS (R$)", { exact: true }).fill("50000,00");
    const validUntil = await form.getByLabel("Validade da proposta", { exact: true }).getAttribute("min");
    const [y, m, d] = validUntil!.split("-").map(Number);
    await form.getByLabel("Validade da proposta", { exact: true }).fill(new Date(Date.UTC(y, m - 1, d + 10)).toISOString().slice(0, 10));
    await form.getByLabel("Condições", { exact: true }).fill("Entrega das chaves em 60 dias.");
    await form.getByRole("button", { name: "Registrar proposta" }).click();
    await expect(page.getByText("Proposta registrada!")).toBeVisible();
    const card = section.getByRole("listitem", { name: `Proposta para ${CODIGO}` });
    await expect(card.getByTestId("proposal-amount")).toHaveText("R$\u00a01.150.000");
    await expect(card.getByText("Em negociação")).toBeVisible();

    // 2. The owner counters at R$ 1.220.000; the buyer comes to R$ 1.190.000.
    await card.getByLabel("Quem oferece", { exact: true }).selectOption("proprietario");
    await card.getByLabel("Novo valor (R$)", { exact: true }).fill("1220000,00");
    await card.getByRole("button", { name: "Registrar oferta" }).click();
    await expect(page.getByText("Oferta registrada!").first()).toBeVisible();
    await expect(card.getByTestId("proposal-amount")).toHaveText("R$\u00a01.220.000");
    await card.getByLabel("Quem oferece", { exact: true }).selectOption("cliente");
    await card.getByLabel("Novo valor (R$)", { exact: true }).fill("1190000,00");
    await card.getByRole("button", { name: "Registrar oferta" }).click();
    await expect(card.getByTestId("proposal-amount")).toHaveText("R$\u00a01.190.000");
    const offers = card.getByRole("list", { name: "Histórico de ofertas" });
    await expect(offers.getByRole("listitem")).toHaveCount(3);
    await expect(offers.getByRole("listitem").nth(1)).toContainText("Contraproposta (Proprietário): R$\u00a01.220.000");

    // 3. Accepted.
    await card.getByRole("button", { name: "Aceitar proposta" }).click();
    await expect(page.getByText("Proposta aceita! Agora registre o fechamento.")).toBeVisible();
    await expect(card.getByText("Aceita", { exact: true })).toBeVisible();

    // 4. The deal: 6 % (the default), half to a partner broker.
    const deal = card.getByRole("form", { name: "Fechar negócio" });
    await expect(deal.getByLabel("Valor final (R$)", { exact: true })).toHaveValue("1.190.000,00");
    await expect(deal.getByLabel("Comissão (%)", { exact: true })).toHaveValue("6");
    await deal.getByLabel("Parceiro 1: nome", { exact: true }).fill("Paulo Parceiro");
    await deal.getByLabel("CRECI", { exact: true }).fill("RN-1234");
    await deal.getByLabel("% da comissão", { exact: true }).fill("50");
    expect(await publiclyListed(browser)).toBe(true);
    await deal.getByRole("button", { name: "Fechar negócio" }).click();
    await expect(page.getByText("Negócio fechado! Imóvel e lead atualizados.")).toBeVisible();

    // The same moment: the lead is convertido and the listing is gone from the site's list.
    await expect(page.locator("header").getByText("Convertido", { exact: true })).toBeVisible();
    expect(await publiclyListed(browser)).toBe(false);
    const summary = card.locator("[data-deal]");
    await expect(summary).toContainText("Negócio fechado: R$\u00a01.190.000");
    await expect(summary.getByTestId("deal-commission")).toContainText("Comissão: 6% = R$\u00a071.400");
    await expect(summary.getByRole("list", { name: "Divisão da comissão" })).toContainText("Paulo Parceiro (CRECI RN-1234): 50% = R$\u00a035.700");
    const history = page.getByRole("list", { name: "Histórico do lead" });
    await expect(history.getByText(`Negócio fechado (${CODIGO}): R$\u00a01.190.000`)).toBeVisible();
    await expect(history.getByText("Status: Novo → Convertido")).toBeVisible();
    await expectFitsWindow(page, "lead page with a deal");
    await expectNoViolations(page, "lead page with a deal at 1280 px");
    await page.screenshot({ path: test.info().outputPath("lead-negotiation-1280.png"), fullPage: true });

    // The printable proposal: both names, the amounts, the broker's CRECI.
    const href = await card.getByRole("link", { name: "Baixar proposta (PDF)" }).getAttribute("href");
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    const { text } = await pdfText(new Uint8Array(await pdf.body()));
    for (const expected of [BUYER, OWNER, CODIGO, "R$ 1.190.000", "R$ 1.220.000", "R$ 1.150.000", "Financiamento: R$ 800.000", "CRECI"]) expect(text).toContain(expected);
    // The CRECI as the site shows it on /sobre (the settings may have changed it in another spec).
    const about = await page.request.get("/sobre").then((response) => response.text());
    const creci = /Corretor de imóveis · (?:<!-- -->)?([^<]+)</.exec(about)?.[1].trim();
    expect(creci).toMatch(/CRECI/);
    expect(text).toContain(creci!.replace(/\s+/g, " "));

    // The listing's 'Negociações' and the dashboard.
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    // The row's actions gained 'Negociações': the table still fits.
    await expectFitsWindow(page, "listings table");
    await page.screenshot({ path: test.info().outputPath("listings-1280.png") });
    await page.getByRole("link", { name: `Negociações de ${CODIGO}` }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Negociações" })).toBeVisible();
    await expect(page.getByRole("listitem", { name: `Proposta para ${CODIGO}` }).getByRole("link", { name: BUYER })).toBeVisible();
    await expectNoViolations(page, "listing negotiations at 1280 px");
    await page.screenshot({ path: test.info().outputPath("listing-negotiations-1280.png"), fullPage: true });
    await page.goto("/crm");
    await expect(page.getByTestId("commissions-to-receive")).toContainText(`R$\u00a071.400 · ${CODIGO} · ${BUYER}`);
    await page.screenshot({ path: test.info().outputPath("dashboard-1280.png"), fullPage: true });
  });
});

test.describe("the negotiation on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the lead page, the listing's Negociações and the dashboard at 390 px; undoing the deal puts the listing back", async ({ page, browser }) => {
    test.setTimeout(120_000);
    expect(leadUrl).not.toBe("");
    await signInAsAdmin(page);
    await page.goto(leadUrl);
    await waitForHydration(page);
    const section = page.getByRole("region", { name: "Negociações" });
    await section.scrollIntoViewIfNeeded();
    await expectFitsWindow(page, "lead page at 390 px");
    await expectNoViolations(page, "lead page at 390 px");
    await page.screenshot({ path: test.info().outputPath("lead-negotiation-390.png"), fullPage: true });
    await section.screenshot({ path: test.info().outputPath("negotiations-section-390.png") });

    await page.goto("/crm");
    await expect(page.getByTestId("commissions-to-receive")).toBeVisible();
    await expectFitsWindow(page, "dashboard at 390 px");
    await page.screenshot({ path: test.info().outputPath("dashboard-390.png"), fullPage: true });

    await page.goto(leadUrl);
    await waitForHydration(page);
    const card = page.getByRole("listitem", { name: `Proposta para ${CODIGO}` });
    await card.getByRole("button", { name: "Desfazer negócio" }).click();
    await card.getByLabel("Motivo (opcional)", { exact: true }).fill("Financiamento negado pelo banco");
    await card.getByRole("button", { name: "Confirmar: desfazer" }).click();
    await expect(page.getByText("Negócio desfeito. Imóvel voltou a disponível e o lead a em atendimento.")).toBeVisible();
    await expect(page.locator("header").getByText("Em atendimento", { exact: true })).toBeVisible();
    await expect(page.getByRole("list", { name: "Histórico do lead" }).getByText(`Negócio desfeito (${CODIGO})`)).toBeVisible();
    expect(await publiclyListed(browser)).toBe(true);

    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    await page.getByRole("link", { name: `Negociações de ${CODIGO}` }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Negociações" })).toBeVisible();
    await waitForHydration(page);
    // Available again: a new proposal can start here, for a lead picked from the open ones.
    await page.getByRole("button", { name: "Nova proposta" }).click();
    const form = page.getByRole("form", { name: "Nova proposta" });
    await expect(form.getByLabel("Lead", { exact: true })).toBeVisible();
    await form.getByRole("button", { name: "Registrar proposta" }).click();
    await expect(form.getByRole("alert")).toHaveText("Escolha o lead que fez a proposta");
    await expectFitsWindow(page, "listing negotiations at 390 px");
    await expectNoViolations(page, "listing negotiations at 390 px");
    await page.screenshot({ path: test.info().outputPath("listing-negotiations-390.png"), fullPage: true });
  });
});
