import fs from "node:fs";
import path from "node:path";
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * Issue 21, a broker's week of use, in the CRM, at 390 and 1280 px:
 * - reports: every value of every table reachable without sideways scrolling; medians in the
 *   unit that fits;
 * - the board: whole names, and a WhatsApp button on every card (labelled, keyboard reachable);
 * - the lead page: a long e-mail wraps after '@' or before a dot, never mid-word, never past its card;
 * - settings: leaving with unsaved changes asks first; each section says whether it is saved.
 * Screenshots of each screen go to .tmp/screens/ for a person to look at.
 */

test.describe.configure({ mode: "serial" });

const STATE = path.resolve(".tmp/e2e-week-of-use-state.json");
const SHOTS = path.resolve(".tmp/screens");
const WIDTHS = [390, 1280];
const LONG_NAME = "Luiza Fernanda de Albuquerque Cavalcanti Wanderley";
const LONG_EMAIL = "maria.aparecida.dos.santos.albuquerque.cavalcanti@provedor-de-email-comprido.com.br";
let leadPath = "";
let soldCodigo = "";

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInAsAdmin(page);
  // A lead with a long name and e-mail, answered in minutes (the median reads '… min').
  const created = await page.request.post("/crm/leads", {
    form: { intent: "create", full_name: LONG_NAME, phone: "(84) 99876-5432", email: LONG_EMAIL, interest_type: "comprar", origin: "indicacao", status: "novo", notes: "Quer ver apartamentos perto da praia." },
  });
  expect(created.ok()).toBe(true);
  await page.goto("/crm/leads");
  leadPath = (await page.getByRole("link", { name: LONG_NAME }).first().getAttribute("href"))!;
  const moved = await page.request.post("/crm/leads", { data: { intent: "status", id: leadPath.split("/").pop(), status: "em_atendimento" } });
  expect(moved.ok()).toBe(true);

  // A visit booked for a listing (a lead tied to it), and that listing sold: the wide tables get rows.
  await page.goto("/crm/imoveis");
  await waitForHydration(page);
  const edit = page.getByRole("button", { name: /^Editar / }).filter({ visible: true }).first();
  const label = await edit.evaluate((element) => element.querySelector("[aria-label]")?.getAttribute("aria-label") ?? element.textContent ?? "");
  const codigo = label.replace(/^\s*Editar\s+/, "").trim();
  soldCodigo = codigo;
  // The exact code opens the listing's page: its id.
  const propertyId = await page.evaluate(async (code) => (await fetch(`/imoveis?codigo=${encodeURIComponent(code)}`)).url.match(/\/imoveis\/([0-9a-f-]{36})/)?.[1] ?? null, codigo);
  expect(propertyId, codigo).not.toBeNull();
  const booked = await page.request.post("/agendar-visita", { form: { full_name: "Visitante do Relatório", phone: "(84) 98888-7777", property_id: propertyId! } });
  expect(booked.status()).toBeLessThan(400);
  await edit.click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Status", { exact: true }).selectOption("vendido");
  await dialog.getByRole("button", { name: "Salvar Alterações" }).click();
  await expect(dialog).toBeHidden();

  fs.mkdirSync(SHOTS, { recursive: true });
  await page.context().storageState({ path: STATE });
  await page.close();
});

async function open(browser: Browser, width: number) {
  const context = await browser.newContext({ storageState: STATE, viewport: { width, height: 900 }, locale: "pt-BR", timezoneId: "America/Fortaleza" });
  return { context, page: await context.newPage() };
}

const shot = (page: Page, name: string, width: number) => page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });

/** Elements inside `root` that scroll sideways (content hidden past their edge). */
function sidewaysScrollers(root: Locator) {
  return root.evaluate((element) =>
    [element, ...element.querySelectorAll<HTMLElement>("*")]
      // Screen-reader-only text is 1 px wide by design.
      .filter((node) => node.getClientRects().length > 0 && !node.closest(".sr-only") && node.scrollWidth > node.clientWidth + 1 && /(auto|scroll|hidden)/.test(getComputedStyle(node).overflowX))
      .map((node) => `${node.tagName.toLowerCase()}.${String(node.className).slice(0, 50)} ${node.scrollWidth}>${node.clientWidth}`),
  );
}

for (const width of WIDTHS) {
  test(`reports at ${width} px: every table readable without sideways scrolling; medians in minutes, hours or days`, async ({ browser }) => {
    const { context, page } = await open(browser, width);
    await page.goto("/crm/relatorios?periodo=30d");
    await waitForHydration(page);
    await expectFitsWindow(page, `reports at ${width} px`);
    for (const key of ["origens", "funil", "semanas", "imoveis-leads", "vendas"]) {
      const section = page.locator(`[data-report="${key}"]`);
      await expect(section.locator("table, ul[data-report-cards]").filter({ visible: true }).first(), key).toBeVisible();
      expect(await sidewaysScrollers(section), `${key} at ${width} px`).toEqual([]);
    }
    // 'Vendas e locações': the sold listing, every other column's name and its price are on screen.
    const sales = page.locator('[data-report="vendas"]');
    /** Scrolled to (the page scrolls down, never sideways), it lies wholly in the window. */
    const onScreen = async (locator: Locator, what: string) => {
      await expect(locator, what).toBeVisible();
      await locator.scrollIntoViewIfNeeded();
      await expect(locator, what).toBeInViewport({ ratio: 1 });
    };
    await onScreen(sales.getByText(soldCodigo).filter({ visible: true }).first(), soldCodigo);
    for (const header of ["Finalidade", "Situação", "Data", "Preço anunciado (R$)", "Valor fechado (R$)", "Dias no mercado"]) {
      await onScreen(sales.getByText(header, { exact: true }).filter({ visible: true }).first(), header);
    }
    await onScreen(sales.getByText(/R\$\s?\d/).filter({ visible: true }).first(), "the price");
    // The lead above was moved within minutes of arriving: no '0 d'.
    await expect(page.locator('[data-summary="Mediana até o 1º atendimento"] [data-value]')).toHaveText(/^(< 1|\d+) min$/);
    await shot(page, "relatorios", width);
    await context.close();
  });

  test(`the board at ${width} px: whole names, and a labelled WhatsApp button reached by the keyboard`, async ({ browser }) => {
    const { context, page } = await open(browser, width);
    await page.goto("/crm/leads?vista=quadro");
    await waitForHydration(page);
    const card = page.locator("[data-lead-card]", { hasText: LONG_NAME }).first();
    const name = card.getByRole("link", { name: LONG_NAME, exact: true });
    await expect(name).toBeVisible();
    const cut = await name.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth, scrollH: element.scrollHeight, clientH: element.clientHeight }));
    expect(cut.scroll, "name cut sideways").toBeLessThanOrEqual(cut.client);
    expect(cut.scrollH, "name cut below").toBeLessThanOrEqual(cut.clientH);
    const whatsapp = card.getByRole("link", { name: `WhatsApp para ${LONG_NAME}` });
    await expect(whatsapp).toBeVisible();
    await expect(whatsapp).toHaveAttribute("href", /^https:\/\/wa\.me\/5584998765432\?text=.*Luiza/);
    await expect(whatsapp).toHaveAttribute("target", "_blank");
    // From the card's handle, Tab reaches it.
    await card.getByRole("button", { name: `Arrastar ${LONG_NAME}` }).focus();
    let reached = false;
    for (let step = 0; step < 4 && !reached; step++) {
      await page.keyboard.press("Tab");
      reached = await whatsapp.evaluate((element) => element === document.activeElement);
    }
    expect(reached, "WhatsApp reached with Tab").toBe(true);
    await card.scrollIntoViewIfNeeded();
    await shot(page, "quadro", width);
    await context.close();
  });

  test(`the lead page at ${width} px: a long e-mail wraps after '@' or before a dot, inside its card`, async ({ browser }) => {
    const { context, page } = await open(browser, width);
    await page.goto(leadPath);
    await waitForHydration(page);
    await expectFitsWindow(page, `lead page at ${width} px`);
    const email = page.getByRole("link", { name: LONG_EMAIL });
    await expect(email).toBeVisible();
    const layout = await email.evaluate((element) => {
      const chars: { ch: string; top: number; right: number }[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (let i = 0; i < node.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (rect) chars.push({ ch: node.data[i], top: Math.round(rect.top), right: rect.right });
        }
      }
      const breaks: string[] = [];
      for (let i = 1; i < chars.length; i++) if (chars[i].top > chars[i - 1].top + 2) breaks.push(`${chars[i - 1].ch}|${chars[i].ch}`);
      const box = element.closest("dd")!.getBoundingClientRect();
      return { breaks, overflow: Math.max(...chars.map((c) => c.right)) - box.right };
    });
    for (const point of layout.breaks) expect(point, "a break after '@', or before a dot").toMatch(/^@\||^.\|\.$|^-\|/);
    if (width === 390) expect(layout.breaks.length, "the address needs more than one line at 390 px").toBeGreaterThan(0);
    expect(layout.overflow, "past its card").toBeLessThanOrEqual(0.5);
    await shot(page, "lead", width);
    await context.close();
  });

  test(`settings at ${width} px: leaving with unsaved changes asks first; each section says whether it is saved`, async ({ browser }) => {
    const { context, page } = await open(browser, width);
    /** Follows the CRM menu's 'Leads' link (the phone's menu opened first). */
    const goToLeads = async () => {
      const menu = page.getByRole("button", { name: "Abrir menu" });
      if (await menu.isVisible()) await menu.click();
      await page.getByRole("navigation", { name: "Menu do CRM" }).filter({ visible: true }).getByRole("link", { name: /^Leads/ }).click();
    };
    await page.goto("/crm/configuracoes");
    await waitForHydration(page);
    const area = page.getByLabel("Região de atendimento", { exact: true });
    const original = await area.inputValue();
    await area.fill(`${original} e região`);
    await expect(page.getByText("Alterações não salvas")).toHaveCount(1);
    await expect(page.locator('[data-section-state="dirty"]').locator("xpath=ancestor::*[.//h2][1]//h2")).toHaveText("Perfil do corretor");
    await shot(page, "configuracoes-alterada", width);

    // A link inside the app: the page asks; 'Continuar editando' keeps what was typed.
    await goToLeads();
    const ask = page.getByRole("alertdialog", { name: "Sair sem salvar?" });
    await expect(ask).toBeVisible();
    await expect(ask).toContainText("Perfil do corretor");
    await shot(page, "configuracoes-sair", width);
    await ask.getByRole("button", { name: "Continuar editando" }).click();
    await expect(ask).toBeHidden();
    await expect(page).toHaveURL(/\/crm\/configuracoes$/);
    await expect(area).toHaveValue(`${original} e região`);

    // Closing the tab or reloading: the browser's own question ('stay' keeps the page).
    const unload = new Promise<string>((resolve) =>
      page.once("dialog", (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await unload).toBe("beforeunload");
    expect(page.isClosed()).toBe(false);

    // Saved: the section says so, and leaving asks nothing.
    await page.getByRole("button", { name: "Salvar perfil" }).click();
    await expect(page.locator('[data-section-state="saved"]')).toHaveText("Salvo");
    await expect(page.getByText("Alterações não salvas")).toHaveCount(0);
    await goToLeads();
    await expect(page).toHaveURL(/\/crm\/leads$/);
    await expect(page.getByRole("alertdialog")).toHaveCount(0);

    // The profile as it was, for the other tests.
    await page.goto("/crm/configuracoes");
    await waitForHydration(page);
    await area.fill(original);
    await page.getByRole("button", { name: "Salvar perfil" }).click();
    await expect(page.locator('[data-section-state="saved"]')).toHaveText("Salvo");
    await context.close();
  });
}
