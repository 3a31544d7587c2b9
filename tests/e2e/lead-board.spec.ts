import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { pressUntil, signInAsAdmin, waitForBoard, waitForHydration } from "./helpers";

/**
 * The pipeline board on /crm/leads: switch to it, move one card with the mouse, one with the
 * keyboard alone (handle focused, Space, ArrowRight, Space) and one through its 'Mover para…'
 * select; after a reload every status is the server's; the dashboard lists the newest lead.
 * A move to 'Perdido' (issue 24) asks why in a dialog first, by the keyboard as by the menu.
 */

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1280, height: 900 } });

const column = (page: Page, status: string) => page.locator(`section[data-column="${status}"]`);
const card = (page: Page, name: string) => page.locator("[data-lead-card]", { hasText: name });

/** A lead made through the page's own form post (the action a browser without JavaScript uses). */
async function createLead(page: Page, name: string, notes: string) {
  const response = await page.request.post("/crm/leads", {
    form: { intent: "create", full_name: name, phone: "(84) 98877-6655", interest_type: "comprar", origin: "whatsapp", status: "novo", notes },
  });
  expect(response.ok()).toBe(true);
}

/** Runs `work` and waits for the status move it sends to be answered. */
async function moveAnswered(page: Page, work: () => Promise<void>) {
  const answered = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/crm/leads"));
  await work();
  expect((await answered).ok()).toBe(true);
}

async function centre(locator: Locator) {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

test("cards move by mouse, keyboard and menu; the statuses persist and the dashboard lists the newest lead", async ({ page }) => {
  const tag = Date.now().toString(36);
  const byMouse = `Arrasta Mouse ${tag}`;
  const byKeyboard = `Teclado Só ${tag}`;
  const byMenu = `Menu Celular ${tag}`;
  await signInAsAdmin(page);
  await createLead(page, byMouse, "Quer um apartamento de 3 quartos perto da praia.");
  await createLead(page, byKeyboard, "Ligar depois das 18h.");
  await createLead(page, byMenu, "Tenho interesse na casa do anúncio, aceita financiamento?");

  await page.goto("/crm/leads");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Quadro" }).click();
  await expect(page).toHaveURL(/[?&]vista=quadro/);
  await waitForBoard(page);
  for (const name of [byMouse, byKeyboard, byMenu]) await expect(column(page, "novo").locator("[data-lead-card]", { hasText: name })).toBeVisible();
  // A card carries its message's start and links to the lead's page.
  await expect(card(page, byMouse)).toContainText("Quer um apartamento de 3 quartos");
  await expect(card(page, byMouse).getByRole("link", { name: byMouse, exact: true })).toHaveAttribute("href", /^\/crm\/leads\/[0-9a-f-]{36}$/);

  // The mouse: drag the handle into 'Em atendimento'.
  const handle = page.getByRole("button", { name: `Arrastar ${byMouse}` });
  const from = await centre(handle);
  const to = await centre(column(page, "em_atendimento").locator("header"));
  await moveAnswered(page, async () => {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 20, from.y + 5, { steps: 4 });
    await page.mouse.move(to.x, to.y + 40, { steps: 12 });
    await page.mouse.up();
  });
  await expect(column(page, "em_atendimento").locator("[data-lead-card]", { hasText: byMouse })).toBeVisible();

  // The keyboard alone: focus the handle, Space picks up, ArrowRight chooses the next column, Space drops.
  await moveAnswered(page, async () => {
    await page.getByRole("button", { name: `Arrastar ${byKeyboard}` }).focus();
    await page.keyboard.press("Space");
    await expect(column(page, "novo")).toHaveClass(/border-primary/);
    await pressUntil(page, "ArrowRight", page.getByText(`Lead ${byKeyboard} sobre a coluna Em atendimento.`));
    await page.keyboard.press("Space");
  });
  await expect(page.getByText(`Lead ${byKeyboard} movido para Em atendimento.`)).toBeAttached();
  await expect(column(page, "em_atendimento").locator("[data-lead-card]", { hasText: byKeyboard })).toBeVisible();

  // The menu a phone uses: 'Perdido' asks why first; nothing moves until a reason is chosen.
  await card(page, byMenu).getByLabel(`Mover ${byMenu} para…`).selectOption("perdido");
  const dialog = page.getByRole("dialog", { name: "Por que este lead foi perdido?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Mover para Perdido" }).click();
  await expect(dialog.getByText("Selecione o motivo da perda")).toBeVisible();
  await expect(column(page, "novo").locator("[data-lead-card]", { hasText: byMenu })).toBeVisible();
  await dialog.getByLabel("Motivo da perda").selectOption("Financiamento negado");
  await dialog.getByLabel("Observação da perda (opcional)").fill("Banco recusou pela renda.");
  await moveAnswered(page, async () => {
    await dialog.getByRole("button", { name: "Mover para Perdido" }).click();
  });
  await expect(dialog).toBeHidden();
  await expect(column(page, "perdido").locator("[data-lead-card]", { hasText: byMenu })).toBeVisible();
  await expect(card(page, byMenu)).toContainText("Motivo: Financiamento negado");
  await expect(page.getByRole("status").filter({ hasText: `${byMenu} movido para Perdido. Motivo: Financiamento negado.` })).toBeAttached();

  // What the server holds, after a reload (the view stays the board: it is in the URL).
  await page.reload();
  // The board hydrated (its lazy chunk too): on a loaded machine CI once matched a card twice
  // for a moment right after the reload; the board it settled on held it once.
  await waitForBoard(page);
  await expect(page.getByTestId("lead-board")).toBeVisible();
  await expect(column(page, "em_atendimento").locator("[data-lead-card]", { hasText: byMouse })).toBeVisible();
  await expect(column(page, "em_atendimento").locator("[data-lead-card]", { hasText: byKeyboard })).toBeVisible();
  await expect(column(page, "perdido").locator("[data-lead-card]", { hasText: byMenu })).toBeVisible();
  await expect(column(page, "novo").locator("[data-lead-card]", { hasText: tag })).toHaveCount(0);

  // The search box narrows the board and keeps it the board.
  await page.getByLabel("Buscar leads").fill(`Teclado Só ${tag}`);
  await expect(page).toHaveURL(/vista=quadro/);
  await expect(page.locator("[data-lead-card]")).toHaveCount(1);
  await expect(column(page, "em_atendimento").locator("[data-column-total]")).toContainText("1");

  // The dashboard: the newest lead heads 'Últimos leads', linking to its page.
  await page.goto("/crm");
  const latest = page.getByTestId("latest-leads");
  await expect(latest.getByRole("link").first()).toContainText(byMenu);
  await expect(latest.getByRole("link", { name: new RegExp(byMenu) })).toHaveAttribute("href", /^\/crm\/leads\/[0-9a-f-]{36}$/);
  await expect(latest.getByRole("link", { name: new RegExp(byMenu) })).toContainText("Perdido");
});

test("a card dropped on 'Perdido' with the keyboard asks why in a dialog operated by the keyboard; Esc leaves it where it was", async ({ page }) => {
  const tag = Date.now().toString(36);
  const name = `Perdido Teclado ${tag}`;
  await signInAsAdmin(page);
  await createLead(page, name, "Achou caro.");
  await page.goto("/crm/leads?vista=quadro");
  await waitForBoard(page);
  const dialog = page.getByRole("dialog", { name: "Por que este lead foi perdido?" });
  const dropOnLost = async () => {
    // Picked up (the column lights up) before the arrows: the sensor listens from then on. Right
    // after the lazy board mounts, a Space can come before the columns are measured and light
    // nothing; a person presses again, and so does the test (Escape first ends a half pick-up).
    await expect(async () => {
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: `Arrastar ${name}` }).focus();
      await page.keyboard.press("Space");
      await expect(column(page, "novo")).toHaveClass(/border-primary/, { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    for (const label of ["Em atendimento", "Convertido", "Perdido"]) {
      await pressUntil(page, "ArrowRight", page.getByText(`Lead ${name} sobre a coluna ${label}.`));
    }
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
  };

  // Dropped, then Esc: the dialog closes and the card stays in 'Novo', with nothing sent.
  let posted = 0;
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/crm/leads")) posted += 1;
  });
  await dropOnLost();
  await expect(page.getByText(`Lead ${name} solto na coluna Perdido. Escolha o motivo da perda.`)).toBeAttached();
  await expect(dialog.getByLabel("Motivo da perda")).toBeFocused();
  // The dialog passes the automated accessibility checks (labels, contrast, focus trap's roles).
  const results = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(column(page, "novo").locator("[data-lead-card]", { hasText: name })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: `Movimento cancelado. ${name} continua em Novo.` })).toBeAttached();
  expect(posted).toBe(0);

  // Again, and this time the reason by typing its first letters, the note, Tab to the button, Enter.
  await dropOnLost();
  await expect(dialog.getByLabel("Motivo da perda")).toBeFocused();
  await page.keyboard.type("Comprou");
  await expect(dialog.getByLabel("Motivo da perda")).toHaveValue("Comprou com outro corretor");
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Observação da perda (opcional)")).toBeFocused();
  await page.keyboard.type("Fechou com a imobiliária do bairro.");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Mover para Perdido" })).toBeFocused();
  await moveAnswered(page, async () => {
    await page.keyboard.press("Enter");
  });
  await expect(dialog).toBeHidden();
  await expect(column(page, "perdido").locator("[data-lead-card]", { hasText: name })).toBeVisible();
  await expect(card(page, name)).toContainText("Motivo: Comprou com outro corretor");

  // The server has it, and the lead's timeline says why.
  await page.reload();
  await waitForBoard(page);
  await expect(column(page, "perdido").locator("[data-lead-card]", { hasText: name })).toBeVisible();
  await card(page, name).getByRole("link", { name, exact: true }).click();
  const history = page.getByRole("list", { name: "Histórico do lead" });
  await expect(history.getByText("Status: Novo → Perdido")).toBeVisible();
  await expect(history.getByText(/Motivo: Comprou com outro corretor · Observação: Fechou com a imobiliária do bairro\./)).toBeVisible();
});

test("an open board follows a move made elsewhere, without a reload", async ({ page }) => {
  const name = `Ao Vivo ${Date.now().toString(36)}`;
  await signInAsAdmin(page);
  await createLead(page, name, "Chegou pelo WhatsApp.");
  await page.goto("/crm/leads?vista=quadro");
  await waitForBoard(page);
  await expect(column(page, "novo").locator("[data-lead-card]", { hasText: name })).toBeVisible();
  // The live stream opens once the page is idle.
  await expect(page.locator("html")).toHaveAttribute("data-live", "open", { timeout: 15_000 });
  const href = (await card(page, name).getByRole("link", { name, exact: true }).getAttribute("href"))!;
  // Another screen (the lead page, a colleague) changes the status: the same action, another request.
  const moved = await page.request.post("/crm/leads", { form: { intent: "status", id: href.split("/").pop()!, status: "convertido" } });
  expect(moved.ok()).toBe(true);
  await expect(column(page, "convertido").locator("[data-lead-card]", { hasText: name })).toBeVisible();
  await expect(column(page, "novo").locator("[data-lead-card]", { hasText: name })).toHaveCount(0);
});

test("the table view shows each lead's message and links the name to the lead's page", async ({ page }) => {
  const name = `Mensagem Longa ${Date.now().toString(36)}`;
  const message = `Bom dia! ${"Procuro um imóvel com quintal grande para os cachorros, ".repeat(3)}fim da mensagem.`;
  await signInAsAdmin(page);
  await createLead(page, name, message);
  await page.goto("/crm/leads");
  await waitForHydration(page);
  const row = page.locator("table tbody tr", { hasText: name });
  await expect(row.getByRole("link", { name, exact: true })).toHaveAttribute("href", /^\/crm\/leads\/[0-9a-f-]{36}$/);
  await expect(row).toContainText("Bom dia! Procuro um imóvel com quintal grande");
  await expect(row.getByText("fim da mensagem.")).toBeHidden();
  await row.getByText("Ver tudo").click();
  await expect(row.getByText("fim da mensagem.", { exact: false })).toBeVisible();
});

test("the board and the dashboard hydrate without console errors and pass the automated accessibility checks at 390 and 1280 px", async ({ page }) => {
  await signInAsAdmin(page);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ["/crm/leads?vista=quadro", "/crm"]) {
      await page.goto(path);
      await waitForHydration(page);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      const summary = results.violations.map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
      expect(summary, `${path} at ${width} px`).toEqual([]);
    }
  }
  // Server and browser render the board alike (dnd-kit's ids are fixed, ages come from the loader's 'now').
  expect(errors).toEqual([]);
});
