import fs from "node:fs";
import path from "node:path";
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * Every CRM screen fits the window at 360, 390, 1024 and 1280 px: the page never scrolls
 * sideways, and every control in it (the 'Novo Imóvel' button, each row's actions, the board's
 * selects) lies inside the window horizontally — only the board's columns may sit in their own
 * sideways-scrolling strip below 1280 px. The form dialogs scroll their body between a fixed title
 * and fixed buttons, so on a 360×640 phone the last field and the save button are both reachable
 * and neither is covered.
 */

test.describe.configure({ mode: "serial" });

const WIDTHS = [360, 390, 1024, 1280];
const PAGES = [
  "/crm",
  "/crm/imoveis",
  "/crm/leads",
  "/crm/leads?vista=quadro",
  "/crm/visitas",
  "/crm/relatorios",
  "/crm/usuarios",
  "/crm/conta",
  "/crm/emails",
  "/crm/auditoria",
  "/crm/configuracoes",
  "/crm/privacidade",
];
const STATE = path.resolve(".tmp/e2e-crm-layout-state.json");

/** One sign-in for the whole file (sign-in is rate limited); each width gets a context of its own. */
test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInAsAdmin(page);
  // Leads with long names, e-mails and messages: the content that used to push tables wide.
  const long = (index: number) => ({
    intent: "create",
    full_name: `Maria Aparecida dos Santos Albuquerque Cavalcanti ${index}`,
    phone: "(84) 99876-5432",
    email: `maria.aparecida.albuquerque.cavalcanti.${index}@provedor-de-email-comprido.com.br`,
    interest_type: "comprar",
    origin: "indicacao",
    status: index % 2 ? "em_atendimento" : "novo",
    notes: `Olá! Gostaria de visitar o apartamento ${"com varanda gourmet e vista para o mar ".repeat(4)}no sábado.`,
  });
  for (const index of [1, 2]) expect((await page.request.post("/crm/leads", { form: long(index) })).ok()).toBe(true);
  // The lead page too, for one of these leads.
  await page.goto("/crm/leads");
  PAGES.push((await page.getByRole("link", { name: /Maria Aparecida dos Santos Albuquerque Cavalcanti 2/ }).first().getAttribute("href"))!);
  fs.mkdirSync(path.dirname(STATE), { recursive: true });
  await page.context().storageState({ path: STATE });
  await page.close();
});

async function open(browser: Browser, width: number, height = 800) {
  const context = await browser.newContext({ storageState: STATE, viewport: { width, height }, locale: "pt-BR", timezoneId: "America/Fortaleza" });
  return { context, page: await context.newPage() };
}

/** Controls lying partly outside the window horizontally (outside the board's own strip). */
async function controlsOutside(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary, label[for]";
    const outside: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(`main ${selector}, nav ${selector}, header ${selector}`)) {
      const rect = element.getBoundingClientRect();
      // Hidden (display: none, a closed menu) or screen-reader-only (1 px): not a visible control.
      if (rect.width <= 1 || rect.height <= 1 || element.closest("[hidden], .sr-only")) continue;
      if (element.closest('[data-testid="lead-board"]') && width < 1280) continue;
      if (rect.left < -0.5 || rect.right > width + 0.5) {
        const name = (element.getAttribute("aria-label") ?? element.textContent ?? element.tagName).trim().slice(0, 60);
        outside.push(`${element.tagName.toLowerCase()} "${name}" ${Math.round(rect.left)}–${Math.round(rect.right)}`);
      }
    }
    return outside;
  });
}

/**
 * Controls hidden sideways inside a scrolling strip of the page (a table wider than its card hides
 * its last columns, the row actions among them). A data table with no controls in the hidden part
 * may scroll; the board's columns, below 1280 px, are a strip by design.
 */
async function controlsHiddenInStrips(page: Page) {
  return page.evaluate(() => {
    const hidden: string[] = [];
    for (const strip of document.querySelectorAll<HTMLElement>("main *")) {
      if (!/(auto|scroll)/.test(getComputedStyle(strip).overflowX) || strip.scrollWidth <= strip.clientWidth + 1) continue;
      if (strip.dataset.testid === "lead-board") continue;
      const box = strip.getBoundingClientRect();
      for (const control of strip.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), select, textarea, summary")) {
        const rect = control.getBoundingClientRect();
        if (rect.width <= 1 || control.closest(".sr-only")) continue;
        if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5) {
          hidden.push(`${control.tagName.toLowerCase()} "${(control.getAttribute("aria-label") ?? control.textContent ?? "").trim().slice(0, 40)}" in a strip ${strip.scrollWidth}>${strip.clientWidth}`);
        }
      }
    }
    return hidden;
  });
}

for (const width of WIDTHS) {
  test(`every CRM screen fits ${width} px with every control inside the window`, async ({ browser }) => {
    const { context, page } = await open(browser, width);
    for (const pathname of PAGES) {
      await page.goto(pathname);
      await waitForHydration(page);
      await expect(page.locator("main h1").first(), pathname).toBeVisible();
      await expectFitsWindow(page, `${pathname} at ${width} px`);
      expect(await controlsOutside(page), `${pathname} at ${width} px`).toEqual([]);
      expect(await controlsHiddenInStrips(page), `${pathname} at ${width} px`).toEqual([]);
    }

    // The controls the issue named, one by one.
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    await expectInsideHorizontally(page.getByRole("button", { name: "Novo Imóvel" }));
    const edits = page.getByRole("button", { name: /^Editar / }).filter({ visible: true });
    const deletes = page.getByRole("button", { name: /^Excluir / }).filter({ visible: true });
    expect(await edits.count()).toBeGreaterThan(0);
    expect(await deletes.count()).toBe(await edits.count());
    for (const button of [...(await edits.all()), ...(await deletes.all())]) await expectInsideHorizontally(button);

    await page.goto("/crm/leads");
    await waitForHydration(page);
    await expectInsideHorizontally(page.getByRole("button", { name: "Novo Lead" }));
    for (const button of await page.getByRole("button", { name: /^Excluir lead de / }).filter({ visible: true }).all()) await expectInsideHorizontally(button);
    await context.close();
  });
}

async function expectInsideHorizontally(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  const width = await locator.page().evaluate(() => window.innerWidth);
  expect(box.x, "left edge inside the window").toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, "right edge inside the window").toBeLessThanOrEqual(width);
}

/** Scrolled into view, visible, inside the window and the topmost thing at its centre (not under the footer). */
async function expectReachable(locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  await expect(locator).toBeInViewport({ ratio: 1 });
  const covered = await locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return top !== null && !element.contains(top) && !top.contains(element) ? `${top.tagName.toLowerCase()}.${String(top.className).slice(0, 60)}` : null;
  });
  expect(covered, "covered by another element").toBeNull();
}

test("the property and lead dialogs on a 360×640 phone: last field and save button both reachable, none under the buttons", async ({ browser }) => {
  const { context, page } = await open(browser, 360, 640);
  await page.goto("/crm/imoveis");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Novo Imóvel" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo Imóvel" });
  await expect(dialog).toBeVisible();
  const dialogBox = (await dialog.boundingBox())!;
  expect(dialogBox.height).toBeLessThanOrEqual(640);
  expect(dialogBox.width).toBeLessThanOrEqual(360);

  const save = dialog.getByRole("button", { name: "Cadastrar Imóvel" });
  // The last field, then every field in order as Tab would bring them: each lands in view, uncovered.
  await expectReachable(dialog.getByText("Adicionar fotos"));
  await expectReachable(save);
  for (const label of ["Código", "Título", "Descrição", "Preço (R$)", "Bairro", "Corretor parceiro"]) {
    const field = dialog.getByLabel(label, { exact: true });
    await field.focus();
    await expectReachable(field);
  }
  await expectReachable(dialog.getByRole("checkbox", { name: "Destaque na página inicial" }));
  // The title bar stays: the close button is reachable while the body is scrolled to its end.
  await expectReachable(dialog.getByRole("button", { name: "Fechar" }));
  await page.keyboard.press("Escape");

  await page.goto("/crm/leads");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Novo Lead" }).click();
  const leadDialog = page.getByRole("dialog", { name: "Novo Lead" });
  const notes = leadDialog.getByLabel("Notas (opcional)");
  await notes.focus();
  await expectReachable(notes);
  await expectReachable(leadDialog.getByRole("button", { name: "Cadastrar Lead" }));
  await context.close();
});
