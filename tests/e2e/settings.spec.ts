import { type Browser, expect, test } from "@playwright/test";
import sharp from "sharp";
import { type ServerProcess, startServerOnOwnDatabase } from "../helpers/server-process";
import { signInAsAdmin, waitForBoard, waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";

/**
 * /crm/configuracoes on the production build, in a server process of its own (port 3610, its own
 * database): the other specs keep the demo broker's profile. The admin changes the broker's name
 * and phone and uploads a portrait; a visitor — whose pages come from the public page cache,
 * filled before the change — sees the new values on the very next request: the about page, the
 * footer, the WhatsApp links and the link preview.
 */
const PORT = 3610;
const ORIGIN = `http://localhost:${PORT}`;
const ADMIN = { email: "admin@configuracoes.test", password: "senha-das-configuracoes-1" };
const NEW_NAME = "Helena Duarte Teste";
const NEW_PHONE = "(84) 97777-1234";
const NEW_WHATSAPP = "5584977771234";

let server: ServerProcess;
let stopServer: () => Promise<void>;

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: ORIGIN });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const env = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
  ({ server, stop: stopServer } = await startServerOnOwnDatabase({ port: PORT, label: "settings", env, templateDir: TEMPLATE_DIR }));
});

test.afterAll(async () => {
  await stopServer?.();
});

/** A visitor's view of a page: a fresh context, no cookie, so the page cache answers it. */
async function visit(browser: Browser, path: string) {
  const context = await browser.newContext({ baseURL: ORIGIN });
  const page = await context.newPage();
  const response = await page.goto(path);
  return { page, response, close: () => context.close() };
}

test("the admin changes the broker's name and phone; /sobre, the footer and the WhatsApp links show them on the next request", async ({ page, browser }) => {
  // A visitor first: /sobre now sits in the page cache with the old profile.
  const before = await visit(browser, "/sobre");
  await expect(before.page.getByRole("heading", { level: 1 })).not.toHaveText(NEW_NAME);
  const again = await visit(browser, "/sobre");
  expect(again.response?.headers()["x-cache"]).toBe("HIT");
  await before.close();
  await again.close();

  await signInAsAdmin(page, ADMIN);
  await page.goto("/crm/configuracoes");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Configurações", level: 1 })).toBeVisible();
  await page.getByLabel("Nome", { exact: true }).fill(NEW_NAME);
  await page.getByLabel("Telefone", { exact: true }).fill(NEW_PHONE);
  await page.getByLabel("WhatsApp", { exact: true }).fill(NEW_PHONE);
  await page.getByRole("button", { name: "Salvar perfil" }).click();
  await expect(page.getByText("Perfil salvo. O site já mostra os novos dados.")).toBeVisible();

  const after = await visit(browser, "/sobre");
  await expect(after.page.getByRole("heading", { level: 1 })).toHaveText(NEW_NAME);
  const footer = after.page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: NEW_PHONE })).toHaveAttribute("href", `tel:+55${NEW_WHATSAPP.slice(2)}`);
  // Every WhatsApp button of the page (navbar, about, footer) goes through /whatsapp (decision
  // 028), which opens the new number.
  const whatsappLinks = after.page.locator('a[href^="/whatsapp?"]');
  expect(await whatsappLinks.count()).toBeGreaterThan(1);
  for (const href of await whatsappLinks.evaluateAll((links) => links.map((link) => link.getAttribute("href")))) {
    const redirect = await after.page.request.get(href!, { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    expect(redirect.headers()["location"]).toMatch(new RegExp(`^https://wa\\.me/${NEW_WHATSAPP}(\\?|$)`));
  }
  // The link preview (what WhatsApp's bot reads from the HTML) carries the new name.
  await expect(after.page.locator('meta[property="og:title"]')).toHaveAttribute("content", new RegExp(NEW_NAME));
  await after.close();

  // The home page, also cached before the change, shows the new phone in its footer.
  const home = await visit(browser, "/");
  await expect(home.page.getByRole("contentinfo").getByRole("link", { name: NEW_PHONE })).toBeVisible();
  await home.close();
});

test("the admin uploads a portrait; it shows on /sobre", async ({ page, browser }) => {
  await signInAsAdmin(page, ADMIN);
  await page.goto("/crm/configuracoes");
  await waitForHydration(page);
  const photo = await sharp({ create: { width: 800, height: 1000, channels: 3, background: { r: 200, g: 120, b: 60 } } }).jpeg().toBuffer();
  await page.getByLabel("Enviar nova foto").setInputFiles({ name: "retrato.jpg", mimeType: "image/jpeg", buffer: photo });
  const preview = page.getByTestId("portrait-preview");
  await expect(preview).toHaveAttribute("src", /^\/media\/[A-Za-z0-9-]+\/400\.webp$/);
  const id = /\/media\/([^/]+)\//.exec((await preview.getAttribute("src"))!)![1];
  await page.getByRole("button", { name: "Salvar perfil" }).click();
  await expect(page.getByText("Perfil salvo. O site já mostra os novos dados.")).toBeVisible();

  const about = await visit(browser, "/sobre");
  const portrait = about.page.getByRole("img", { name: /^Retrato de / });
  await expect(portrait).toHaveAttribute("src", `/media/${id}/800.webp`);
  // Loaded (not a broken image), at the size the layout gives it.
  await expect.poll(() => portrait.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  const box = (await portrait.boundingBox())!;
  expect(box.width).toBeGreaterThan(150);
  expect(box.width).toBeLessThanOrEqual(400);
  await expect(about.page.locator('meta[property="og:image"]')).toHaveAttribute("content", `${ORIGIN}/media/${id}/og.jpg`);
  await about.close();
  expect(server.output()).not.toMatch(/"level":"error"/);
});

test("the admin edits the lost reasons; the board's dialog offers the new list", async ({ page }) => {
  await signInAsAdmin(page, ADMIN);
  await page.goto("/crm/configuracoes");
  await waitForHydration(page);
  const section = page.locator('[data-section="lost-reasons"]');
  await expect(section.getByRole("textbox", { name: "Motivo 1", exact: true })).toHaveValue("Preço");
  // Remove 'Outro' (the 7th), add one, move it to the top, save.
  await section.getByRole("button", { name: "Remover motivo 7" }).click();
  await section.getByRole("button", { name: "Adicionar motivo" }).click();
  await section.getByRole("textbox", { name: "Motivo 7", exact: true }).fill("Imóvel vendido antes");
  for (let step = 7; step > 1; step--) await section.getByRole("button", { name: `Mover motivo ${step} para cima` }).click();
  await expect(section.getByText("Alterações não salvas")).toBeVisible();
  await section.getByRole("button", { name: "Salvar motivos" }).click();
  await expect(page.getByText("Motivos de perda salvos.")).toBeVisible();
  await expect(section.getByText("Salvo")).toBeVisible();
  // A repeated reason is refused with its message, and nothing changes.
  await section.getByRole("textbox", { name: "Motivo 3", exact: true }).fill("preco");
  await section.getByRole("button", { name: "Salvar motivos" }).click();
  await expect(section.getByText("Motivo repetido: preco")).toBeVisible();

  const created = await page.request.post("/crm/leads", {
    form: { intent: "create", full_name: "Lead Das Configurações", phone: "(84) 98800-1122", interest_type: "comprar", origin: "site", status: "novo" },
  });
  expect(created.ok()).toBe(true);
  await page.goto("/crm/leads?vista=quadro");
  await waitForBoard(page);
  await page.locator("[data-lead-card]", { hasText: "Lead Das Configurações" }).getByLabel(/Mover .* para…/).selectOption("perdido");
  await expect(page.getByRole("dialog").getByLabel("Motivo da perda").locator("option")).toHaveText(["Selecione o motivo…", "Imóvel vendido antes", "Preço", "Localização", "Comprou com outro corretor", "Desistiu", "Financiamento negado", "Sem resposta"]);
});
