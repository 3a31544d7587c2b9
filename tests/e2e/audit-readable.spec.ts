import fs from "node:fs";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * Issue 21 (the broker's week): /crm/auditoria showed raw JSON, ids instead of names ('Visita
 * f88c9339'), technical keys, and a table 1,072 px wide that was cut off at 1280 px. Every entry
 * must read in Portuguese — who did what to which lead, listing, visit, user or setting — at
 * 390 px and at 1280 px, with nothing beyond the window. The users page's new buttons ('Revogar',
 * 'Excluir') are used as a person would, at a phone's width.
 */

test.describe.configure({ mode: "serial" });

const STATE = path.resolve(".tmp/e2e-audit-state.json");
const SHOTS = path.resolve(".tmp/screenshots");
/** A visit next year (the agenda takes up to two years ahead). */
const VISIT_YEAR = new Date().getFullYear() + 1;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInAsAdmin(page);
  const post = async (url: string, form: Record<string, string>) => expect((await page.request.post(url, { form })).ok(), url).toBe(true);
  await post("/crm/leads", { intent: "create", full_name: "Joana Auditada", phone: "(84) 99876-1111", interest_type: "comprar", origin: "indicacao", status: "novo" });
  await post("/crm/imoveis", {
    intent: "create",
    codigo: "AUD-E2E",
    title: "Casa auditada em Ponta Negra",
    description: "Uma descrição longa o bastante para o cadastro.",
    type: "casa",
    purpose: "venda",
    status: "disponivel",
    price: "450.000,00",
    neighborhood: "Ponta Negra",
    city: "Natal",
    state: "RN",
  });
  await post("/crm/configuracoes", { intent: "notifications", emails: "avisos@exemplo.com.br" });
  await page.goto("/crm/leads");
  const leadHref = (await page.getByRole("link", { name: /Joana Auditada/ }).first().getAttribute("href"))!;
  const leadId = leadHref.split("/").pop()!;
  const visit = await page.request.post("/crm/visitas", {
    data: { intent: "create", values: { lead_id: leadId, scheduled_at: `${VISIT_YEAR}-03-10T15:00` } },
    headers: { "Content-Type": "application/json" },
  });
  expect(visit.ok()).toBe(true);
  // A wrong password from another browser: a refused sign-in in the trail.
  const stranger = await browser.newContext();
  await stranger.request.post("/auth", { form: { intent: "login", email: E2E_ADMIN.email, password: "nao-e-a-senha-1" } });
  await stranger.close();
  fs.mkdirSync(path.dirname(STATE), { recursive: true });
  await page.context().storageState({ path: STATE });
  await page.close();
});

async function open(browser: Browser, width: number) {
  const context = await browser.newContext({ storageState: STATE, viewport: { width, height: 900 }, locale: "pt-BR", timezoneId: "America/Fortaleza" });
  return { context, page: await context.newPage() };
}

/** Elements in main whose content is wider than their box (cut off or scrolling sideways). */
function cutOff(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("main *")]
      .filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== "visible")
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} ${element.scrollWidth}>${element.clientWidth}`),
  );
}

test("users page: 'Revogar' ends an invitation and 'Excluir' erases an account, at 390 px", async ({ browser }) => {
  const { context, page } = await open(browser, 390);
  // An unconfirmed sign-up to erase.
  expect((await page.request.post("/auth", { form: { intent: "cadastro", fullName: "Conta Para Apagar", email: "apagar-e2e@exemplo.com", password: "senha-para-apagar-1" } })).ok()).toBe(true);
  await page.goto("/crm/usuarios");
  await waitForHydration(page);
  await page.getByLabel("Email", { exact: true }).fill("convite-e2e@exemplo.com");
  await page.getByRole("button", { name: "Enviar convite" }).click();
  await expect(page.getByText("Convite enviado para convite-e2e@exemplo.com.")).toBeVisible();
  // How the page looks with a pending invitation and an account that can be deleted, at both widths.
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.getByRole("heading", { name: "Convites pendentes" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, "users-390-pending.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectFitsWindow(page, "/crm/usuarios at 1280 px");
  await page.screenshot({ path: path.join(SHOTS, "users-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 900 });
  await page.getByRole("button", { name: "Revogar o convite de convite-e2e@exemplo.com" }).click();
  await expect(page.getByText("Convite para convite-e2e@exemplo.com revogado.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Revogar o convite de convite-e2e@exemplo.com" })).toHaveCount(0);

  await page.getByRole("button", { name: "Excluir a conta de apagar-e2e@exemplo.com" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("apagar-e2e@exemplo.com");
  await dialog.getByRole("button", { name: "Excluir", exact: true }).click();
  await expect(page.getByText("Conta de apagar-e2e@exemplo.com excluída.")).toBeVisible();
  await expect(page.getByText("apagar-e2e@exemplo.com", { exact: true })).toHaveCount(0);
  await expectFitsWindow(page, "/crm/usuarios at 390 px");
  await context.close();
});

for (const width of [390, 1280]) {
  test(`/crm/auditoria reads in Portuguese at ${width} px, nothing cut off`, async ({ browser }) => {
    const { context, page } = await open(browser, width);
    await page.goto("/crm/auditoria");
    await expect(page.getByRole("heading", { name: "Auditoria" })).toBeVisible();
    const main = page.locator("main");
    for (const text of [
      "Entrou no CRM",
      "Entrada recusada: senha errada",
      "Lead cadastrado · Lead Joana Auditada",
      "Imóvel cadastrado · Imóvel AUD-E2E — Casa auditada em Ponta Negra",
      `Visita agendada · Visita de Joana Auditada em 10/03/${VISIT_YEAR}, 15:00`,
      "Configurações alteradas · Configuração: Emails que recebem os novos leads",
      "Convite revogado · Convite para convite-e2e@exemplo.com",
      "Conta excluída · Usuário (conta excluída)",
    ]) {
      await expect(main.getByText(text, { exact: true }).first(), text).toBeVisible();
    }
    const shown = await main.innerText();
    expect(shown).not.toMatch(/[{}]/);
    expect(shown).not.toMatch(/\b(property|lead|visit|user|auth|settings|privacy|calendar_feed|backup)\.[a-z_]+/);
    expect(shown).not.toMatch(/\b[0-9a-f]{8}(-[0-9a-f]{4}){0,4}\b/);
    await expectFitsWindow(page, `/crm/auditoria at ${width} px`);
    expect(await cutOff(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, `audit-${width}.png`), fullPage: false });
    await context.close();
  });
}
