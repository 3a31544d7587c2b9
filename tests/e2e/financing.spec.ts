import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import type { Schedule } from "../../app/features/financing/amortization";
import { initialInput, simulate, type SimulatorInput } from "../../app/features/financing/simulation";
import { waitForHydration } from "./helpers";

/**
 * The financing simulator on sale listings (issue 13, item 7): loaded only when opened, SAC and
 * Price figures as app/features/financing computes them for what the visitor typed, messages
 * for invalid values, the full schedule on request; no simulator on rent listings.
 */

const PUBLIC_JS_BUDGET = 120 * 1024; // docs/decisions/003-javascript-budget.md, as in budget.spec.ts

const money = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
const brl = (cents: number) => money.format(cents / 100);

/** The first listing of a purpose whose page shows a price (not 'Sob consulta'), and that price. */
async function listing(page: Page, purpose: "venda" | "aluguel") {
  const list = await (await page.request.get(`/imoveis?finalidade=${purpose}`)).text();
  const paths = [...new Set([...list.matchAll(/href="(\/imoveis\/[0-9a-f-]{36})"/g)].map((match) => match[1]))];
  for (const path of paths) {
    const html = await (await page.request.get(path)).text();
    const price = /"price":\s*"?([\d.]+)/.exec(html);
    if (!html.includes("Sob consulta") && price) return { path, price: Number(price[1]) };
  }
  throw new Error(`no ${purpose} listing with a price`);
}

function figure(card: Locator, label: string) {
  return card.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
}

async function expectFigures(page: Page, input: SimulatorInput) {
  const result = simulate(input);
  if (!result.ok) throw new Error(`expected a valid simulation: ${JSON.stringify(result.errors)}`);
  await expect(page.getByText("Valor financiado:")).toContainText(brl(result.principal));
  for (const [name, schedule] of [["SAC", result.sac], ["Tabela Price", result.price]] as [string, Schedule][]) {
    const card = page.getByRole("region", { name, exact: true });
    await expect(figure(card, "Primeira parcela")).toHaveText(brl(schedule.firstInstalment));
    await expect(figure(card, "Última parcela")).toHaveText(brl(schedule.lastInstalment));
    await expect(figure(card, "Total pago")).toHaveText(brl(schedule.totalPaid));
    await expect(figure(card, "Total de juros")).toHaveText(brl(schedule.totalInterest));
  }
  return result;
}

test.describe("on a phone (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the simulator loads on demand, computes both systems, checks its fields and shows the schedule", async ({ page }) => {
    const { path, price } = await listing(page, "venda");
    const scripts = new Map<string, Promise<number>>();
    page.on("requestfinished", (request) => {
      const { pathname } = new URL(request.url());
      if (/^\/assets\/.+\.js$/.test(pathname)) scripts.set(pathname, request.sizes().then((sizes) => sizes.responseBodySize + sizes.responseHeadersSize));
    });
    await page.goto(path);
    await waitForHydration(page);
    await page.waitForFunction(() => document.documentElement.dataset.live !== undefined, undefined, { timeout: 15_000 });

    // Before the click: the page's scripts hold nothing of the simulator, and stay in the budget.
    const before = new Map(scripts);
    let transferred = 0;
    for (const [file, size] of before) {
      transferred += await size;
      const body = await (await page.request.get(file)).text();
      expect(body, file).not.toContain("Ver tabela completa");
      expect(body, file).not.toContain("Taxa de juros (% ao ano, efetiva)");
    }
    test.info().annotations.push({ type: "js-bytes", description: `${path} (sale) before opening the simulator: ${transferred} transferred` });
    expect(transferred).toBeLessThanOrEqual(PUBLIC_JS_BUDGET);
    expect([...before.keys()].some((file) => file.includes("financing-simulator"))).toBe(false);

    const section = page.getByRole("region", { name: "Simulação de financiamento" });
    await expect(page.getByText("Taxa de juros (% ao ano, efetiva)")).toHaveCount(0);
    const open = section.getByRole("button", { name: "Simular financiamento" });
    await expect(open).toHaveAttribute("aria-expanded", "false");
    // Keyboard: the button takes focus and opens with Enter.
    await open.focus();
    await page.keyboard.press("Enter");
    await expect(section.getByRole("button", { name: "Ocultar simulação" })).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByLabel("Valor do imóvel (R$)")).toBeVisible();

    // The click fetched a chunk of its own, one the page had not loaded.
    const fetched = [...scripts.keys()].filter((file) => !before.has(file));
    expect(fetched.some((file) => /financing-simulator/.test(file)), fetched.join(", ")).toBe(true);
    for (const file of fetched) expect(file).not.toMatch(/crm-/);

    // Prefilled: the listing's price, 20 % down, 360 months, the example rate.
    const input = initialInput(price);
    await expect(page.getByLabel("Valor do imóvel (R$)")).toHaveValue(input.price);
    await expect(page.getByLabel("Entrada (R$)")).toHaveValue(input.downPayment);
    await expect(page.getByLabel("Prazo (meses)")).toHaveValue("360");
    await expect(page.getByLabel("Taxa de juros (% ao ano, efetiva)")).toHaveValue("11,5");
    await expect(section.getByText("Simulação estimada.", { exact: true })).toBeVisible();
    const first = await expectFigures(page, input);
    // SAC starts higher than Price, and costs less interest over the term.
    expect(first.sac.firstInstalment).toBeGreaterThan(first.price.firstInstalment);

    // Stacked on a phone: Price under SAC.
    // Measured once the figures have settled: right after they render, the cards may still be
    // growing (CI read the boxes 11 px into each other while the SAC card took its height).
    await expect(async () => {
      const sacBox = (await page.getByRole("region", { name: "SAC", exact: true }).boundingBox())!;
      const priceBox = (await page.getByRole("region", { name: "Tabela Price", exact: true }).boundingBox())!;
      expect(priceBox.y).toBeGreaterThan(sacBox.y + sacBox.height - 1);
    }).toPass({ timeout: 5_000 });

    // A new down payment (Brazilian format) changes the figures.
    const changed = { ...input, downPayment: "50.000,00" };
    await page.getByLabel("Entrada (R$)").fill(changed.downPayment);
    const second = await expectFigures(page, changed);
    expect(second.sac.firstInstalment).not.toBe(first.sac.firstInstalment);

    // Invalid values: a message beside the field, no figures, never NaN.
    await page.getByLabel("Entrada (R$)").fill(input.price);
    const downPayment = page.getByLabel("Entrada (R$)");
    await expect(downPayment).toHaveAttribute("aria-invalid", "true");
    await expect(downPayment).toHaveAccessibleDescription(/A entrada deve ser menor que o valor do imóvel\./);
    await expect(page.getByText("Corrija os campos indicados para ver a simulação.")).toBeVisible();
    await expect(page.getByRole("region", { name: "SAC", exact: true })).toHaveCount(0);
    await page.getByLabel("Prazo (meses)").fill("500");
    await expect(page.getByText("Informe o prazo em meses: um número inteiro de 1 a 420 (35 anos).")).toBeVisible();
    await page.getByLabel("Taxa de juros (% ao ano, efetiva)").fill("abc");
    await expect(page.getByText("Informe a taxa de juros entre 0 e 30 % ao ano.")).toBeVisible();
    await expect(page.locator("main")).not.toContainText("NaN");

    // Back to valid values (0 % a year works too), then the full schedules.
    const final = { price: input.price, downPayment: "0", months: "240", yearlyRate: "0" };
    await page.getByLabel("Entrada (R$)").fill(final.downPayment);
    await page.getByLabel("Prazo (meses)").fill(final.months);
    await page.getByLabel("Taxa de juros (% ao ano, efetiva)").fill(final.yearlyRate);
    await expect(downPayment).not.toHaveAttribute("aria-invalid", "true");
    await expectFigures(page, final);
    await expect(page.locator("main")).not.toContainText("NaN");

    await page.getByLabel("Prazo (meses)").fill("360");
    await page.getByLabel("Taxa de juros (% ao ano, efetiva)").fill("11,5");
    const sac = page.getByRole("region", { name: "SAC", exact: true });
    await expect(sac.getByRole("table")).toHaveCount(0); // drawn only when asked for
    await sac.getByText("Ver tabela completa").click();
    const table = sac.getByRole("table", { name: "SAC: 360 parcelas (valores em R$)" });
    await expect(table).toBeVisible();
    await expect(table.locator("tbody tr")).toHaveCount(360);
    const full = simulate({ ...final, months: "360", yearlyRate: "11,5" });
    if (!full.ok) throw new Error("expected a valid simulation");
    await expect(table.locator("tbody tr").first()).toContainText(new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2 }).format(full.sac.rows[0].instalment / 100));
    await expect(table.locator("tbody tr").last().locator("td").last()).toHaveText("0,00");

    const priceCard = page.getByRole("region", { name: "Tabela Price", exact: true });
    await priceCard.getByText("Ver tabela completa").click();
    await expect(priceCard.getByRole("table").locator("tbody tr")).toHaveCount(360);

    // No axe violations with the simulator and both tables open.
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`)).toEqual([]);

    // Closing keeps what was typed.
    await section.getByRole("button", { name: "Ocultar simulação" }).click();
    await expect(page.getByLabel("Valor do imóvel (R$)")).toBeHidden();
    await section.getByRole("button", { name: "Simular financiamento" }).click();
    await expect(page.getByLabel("Prazo (meses)")).toHaveValue("360");
    await expect(page.getByLabel("Entrada (R$)")).toHaveValue("0");
  });

  test("a rent listing has no simulator", async ({ page }) => {
    const { path } = await listing(page, "aluguel");
    await page.goto(path);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Descrição" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Simulação de financiamento" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Simular financiamento" })).toHaveCount(0);
  });
});

test.describe("on a wide screen (1280 px)", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("SAC and Price sit side by side", async ({ page }) => {
    const { path } = await listing(page, "venda");
    await page.goto(path);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Simular financiamento" }).click();
    const sacBox = (await page.getByRole("region", { name: "SAC", exact: true }).boundingBox())!;
    const priceBox = (await page.getByRole("region", { name: "Tabela Price", exact: true }).boundingBox())!;
    expect(Math.abs(priceBox.y - sacBox.y)).toBeLessThan(2);
    expect(priceBox.x).toBeGreaterThan(sacBox.x + sacBox.width - 1);
  });
});
