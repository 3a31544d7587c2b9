import { expect, type Page, type Route, test } from "@playwright/test";
import { signInAsAdmin, waitForHydration } from "./helpers";

/**
 * A form whose text arrives in another encoding than UTF-8 (issue 21): the server answers 400
 * with a clear message instead of storing (and mailing) '�', and the page's JavaScript form shows
 * that message, keeping what was typed. A browser always sends UTF-8 from our pages, so the
 * request is re-encoded on its way out, as a misconfigured client or proxy would: each "ã"/"ç"
 * becomes its one Latin-1 byte.
 */
const NOT_UTF8 = "Alguns caracteres do texto enviado não puderam ser lidos (a codificação não é UTF-8). Digite o texto de novo e envie.";

/** Rewrites the posted body to Latin-1: percent-escapes in a form, raw bytes in JSON. */
async function asLatin1(page: Page, path: string) {
  await page.route((url) => url.pathname === path, async (route: Route) => {
    const request = route.request();
    if (request.method() !== "POST") return route.continue();
    const text = request.postDataBuffer()!.toString("utf8");
    const body = (request.headers()["content-type"] ?? "").includes("json")
      ? Buffer.from(text, "latin1")
      : Buffer.from(text.replace(/%C3%([89AB][0-9A-F])/g, (_all, low: string) => `%${(0xc0 + (Number.parseInt(low, 16) & 0x3f)).toString(16).toUpperCase()}`));
    await route.continue({ postData: body });
  });
}

test("the contact form shows the message, keeps what was typed, and no chat opens", async ({ page }) => {
  await page.goto("/contato");
  await waitForHydration(page);
  await asLatin1(page, "/contato.data");
  await page.getByLabel("Nome").fill("João Codificação");
  await page.getByLabel("Telefone (WhatsApp)").fill("84988887777");
  await page.getByLabel("Email").fill("joao@exemplo.com");
  await page.getByLabel("Mensagem").fill("Procuro apartamento com varanda em Capim Macio.");
  const [chat] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: "Enviar Mensagem" }).click()]);
  await expect(page.getByText(NOT_UTF8)).toBeVisible();
  await expect(page.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toHaveCount(0);
  // The tab opened for the chat during the click is closed again.
  await expect.poll(() => chat.isClosed()).toBe(true);
  await expect(page.getByLabel("Nome")).toHaveValue("João Codificação");
});

test("the visit booking form shows the message too", async ({ page }) => {
  await page.goto("/agendar-visita");
  await waitForHydration(page);
  await asLatin1(page, "/agendar-visita.data");
  await page.getByLabel("Nome completo").fill("Conceição Visitante");
  await page.getByLabel("Telefone (WhatsApp)").fill("84999991234");
  await page.getByRole("button", { name: "Agendar Visita" }).click();
  await expect(page.getByText(NOT_UTF8)).toBeVisible();
  await expect(page.getByLabel("Nome completo")).toHaveValue("Conceição Visitante");
});

test("a CRM dialog (JSON) shows the message and stays open with what was typed", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/crm/leads");
  await waitForHydration(page);
  await asLatin1(page, "/crm/leads.data");
  await page.getByRole("button", { name: "Novo Lead" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo Lead" });
  await dialog.getByLabel("Nome completo").fill("Lead Codificação");
  await dialog.getByLabel("Telefone").fill("84977776666");
  await dialog.getByRole("button", { name: "Cadastrar Lead" }).click();
  await expect(page.getByText(NOT_UTF8)).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Nome completo")).toHaveValue("Lead Codificação");
  await page.unrouteAll();
  await page.goto("/crm/leads");
  await waitForHydration(page);
  await expect(page.getByText("Lead Codificação")).toHaveCount(0);
});
