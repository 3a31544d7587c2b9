import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { startServerOnOwnDatabase } from "../helpers/server-process";
import { pressUntil, signInAsAdmin, waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";
import { DEFAULT_TILE_URL } from "~/features/properties/map/tiles";

/**
 * Issue 22, item 5, on the production build with a server of its own (port 3690; this spec edits a
 * demo listing and the watermark): the broker adds a video and a tour and picks a new cover with
 * the keyboard in the CRM's Mídia section; a visitor's property page fetches nothing from YouTube
 * until 'Assistir ao vídeo' is pressed, then shows the youtube-nocookie player; the page's CSP
 * frames only the accepted hosts, and no other page frames anything; the watermark switch saves.
 * Outside requests are answered by the test (nothing reaches the internet).
 */
const PORT = 3690;
const ORIGIN = `http://localhost:${PORT}`;
const ADMIN = { email: "admin@midia.test", password: "senha-da-midia-1" };
const SHOTS = ".tmp/shots";
fs.mkdirSync(SHOTS, { recursive: true });

async function expectNoViolations(page: Page, context: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`), context).toEqual([]);
}

let stopServer: () => Promise<void>;
let propertyPath = "";

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: ORIGIN });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  ({ stop: stopServer } = await startServerOnOwnDatabase({
    port: PORT,
    label: "listing-media",
    // On PostgreSQL the server starts on an empty database of its own: the demo listings (with
    // their photos) give it listings to edit, as the PGlite template does.
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...(process.env.TEST_DATABASE_URL ? { SEED_DEMO: "true" } : {}) },
    templateDir: TEMPLATE_DIR,
  }));
});

test.afterAll(async () => {
  await stopServer?.();
});

/** Every request to another host is recorded and answered with an empty page. */
async function recordOutside(page: Page): Promise<string[]> {
  const outside: string[] = [];
  await page.route(/^https?:\/\/(?!localhost[:/])/, (route) => {
    outside.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title>" });
  });
  return outside;
}

test.describe("the broker's Mídia section on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("adds a video and a tour, moves the second photo to the front with the keyboard, and the site shows the new cover", async ({ page, browser }) => {
    await signInAsAdmin(page, ADMIN);
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    const edit = page.getByRole("button", { name: /^Editar / }).first();
    const codigo = (await edit.locator("svg").getAttribute("aria-label"))!.replace(/^Editar /, "");
    await edit.click();
    const dialog = page.getByRole("dialog", { name: "Editar Imóvel" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("navigation", { name: "Seções do formulário" }).getByRole("button", { name: "Mídia" }).click();

    const photos = dialog.getByRole("list", { name: /Fotos do imóvel/ }).getByRole("listitem");
    expect(await photos.count()).toBeGreaterThan(1);
    const second = await photos.nth(1).locator("img").getAttribute("src");
    await expect(photos.first()).toContainText("Capa");

    // Keyboard drag: pick photo 2 up by its handle, move it left onto photo 1, drop.
    const handle = dialog.getByRole("button", { name: "Arrastar foto 2" });
    await handle.focus();
    await page.keyboard.press("Space");
    // Picked up (dnd-kit marks the handle pressed) before moving; each move is announced.
    await expect(handle).toHaveAttribute("aria-pressed", "true");
    await pressUntil(page, "ArrowLeft", page.getByText("Foto 2 sobre a posição 1."));
    await page.keyboard.press("Space");
    await expect(photos.first().locator("img")).toHaveAttribute("src", second!);
    await expect(photos.first()).toContainText("Capa");
    // 'Definir como capa' is offered on every photo but the cover.
    await expect(photos.first().getByRole("button", { name: /como capa/ })).toHaveCount(0);
    await expect(photos.nth(1).getByRole("button", { name: "Definir como capa: foto 2" })).toBeVisible();

    await dialog.getByLabel("Vídeo (YouTube ou Vimeo)").fill("https://youtu.be/dQw4w9WgXcQ");
    await dialog.getByLabel("Tour 360°").fill("https://my.matterport.com/show/?m=SxQL3iGyoDo");
    await dialog.getByRole("heading", { name: "Mídia" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/listing-media-crm-390.png` });
    await expectNoViolations(page, "Mídia section");
    await dialog.getByRole("button", { name: "Salvar Alterações" }).click();
    await expect(page.getByText("Imóvel atualizado com sucesso!")).toBeVisible();

    // The public page, found by its code: the new cover comes first.
    const visitor = await browser.newPage({ baseURL: ORIGIN });
    await visitor.goto(`/imoveis?codigo=${encodeURIComponent(codigo)}`);
    await expect(visitor).toHaveURL(/\/imoveis\/[0-9a-f-]{36}$/);
    propertyPath = new URL(visitor.url()).pathname;
    const coverId = /\/media\/([^/]+)\//.exec(second!)![1];
    await expect(visitor.locator('meta[property="og:image"]')).toHaveAttribute("content", new RegExp(`/media/${coverId}/og\\.jpg$`));
    await visitor.close();
  });
});

async function openPropertyPage(browser: Browser, width: number) {
  const context = await browser.newContext({ baseURL: ORIGIN, viewport: { width, height: 900 } });
  const page = await context.newPage();
  const outside = await recordOutside(page);
  const response = await page.goto(propertyPath);
  await waitForHydration(page);
  return { page, outside, response, close: () => context.close() };
}

for (const width of [390, 1280]) {
  test(`at ${width} px the video loads only after 'Assistir ao vídeo', through youtube-nocookie`, async ({ browser }) => {
    expect(propertyPath).not.toBe("");
    const { page, outside, response, close } = await openPropertyPage(browser, width);
    const csp = response!.headers()["content-security-policy"];
    expect(csp).toMatch(/frame-src https:\/\/www\.youtube-nocookie\.com https:\/\/player\.vimeo\.com https:\/\/my\.matterport\.com/);

    const section = page.getByRole("region", { name: "Vídeo e tour" });
    await section.scrollIntoViewIfNeeded();
    // Below the description, on a phone as on a wide screen.
    const descriptionBottom = (await page.getByRole("heading", { name: "Descrição" }).boundingBox())!.y;
    expect((await section.boundingBox())!.y).toBeGreaterThan(descriptionBottom);
    await expect(page.locator("iframe")).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/listing-media-property-${width}-before.png`, fullPage: false });
    await expectNoViolations(page, `${propertyPath} at ${width} px`);
    // Nothing from the players before the click. (The map below the players has scrolled into view
    // too, and its tiles come from the tile provider: listing-map.spec.ts covers those.)
    const tiles = new URL(DEFAULT_TILE_URL.replace(/\{[a-z]\}/g, "0")).origin;
    expect(outside.filter((url) => !url.startsWith(tiles))).toEqual([]);

    await section.getByRole("button", { name: "Assistir ao vídeo" }).click();
    const player = section.locator("iframe");
    await expect(player).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1");
    await expect(player).toHaveAttribute("title", /Vídeo do imóvel/);
    await expect.poll(() => outside.some((url) => url.startsWith("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"))).toBe(true);
    expect(outside.some((url) => /(^https:\/\/(www\.)?youtube\.com)|matterport/.test(url))).toBe(false);

    await section.getByRole("button", { name: "Abrir tour 360°" }).click();
    await expect(section.locator("iframe")).toHaveCount(2);
    await page.screenshot({ path: `${SHOTS}/listing-media-property-${width}-after.png`, fullPage: false });
    await close();
  });
}

test("no other page may frame anything: home, list, about and sign-in carry no frame-src", async ({ request }) => {
  for (const path of ["/", "/imoveis", "/sobre", "/auth"]) {
    const response = await request.get(path);
    expect(response.headers()["content-security-policy"], path).not.toContain("frame-src");
    expect(response.headers()["content-security-policy"], path).toContain("default-src 'self'");
  }
});

test("the admin turns the watermark on in the settings, and it stays on", async ({ page }) => {
  await signInAsAdmin(page, ADMIN);
  await page.goto("/crm/configuracoes");
  await waitForHydration(page);
  const toggle = page.getByLabel("Aplicar marca d'água nas fotos dos imóveis");
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await page.getByLabel("Texto da marca d'água").fill("Imobiliária Teste");
  await page.getByRole("button", { name: "Salvar marca d'água" }).click();
  await expect(page.getByText("Marca d'água salva.", { exact: false })).toBeVisible();
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel("Aplicar marca d'água nas fotos dos imóveis")).toBeChecked();
  await expect(page.getByLabel("Texto da marca d'água")).toHaveValue("Imobiliária Teste");
  await expectNoViolations(page, "/crm/configuracoes");
});
