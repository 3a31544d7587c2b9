import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";
import { signInAsAdmin, waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";

/**
 * The installable CRM (issue 25, decision 029) in Chromium: the manifest a CRM page links to, every
 * icon it names (a PNG of the size it claims), the service worker controlling /crm and nothing of
 * it on the public site; the last-seen dashboard, leads list and lead page readable offline with
 * the banner; 'Sair' emptying the saved pages; and a second person signing in on the same browser
 * never reading the first one's copies. On a server of its own, with a corretor made by the CLI.
 */

const PORT = 3780;
const CORRETOR = { email: "corretora.pwa@teste.com.br", password: "senha-da-corretora-1", name: "Corretora Instalada" };
const SHOTS = path.resolve(".tmp/screenshots");
// One sign-in of the admin for the file (sign-ins are limited per address and account).
const STATE = path.resolve(".tmp/e2e-installable-state.json");
let server: ServerProcess;

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: `http://localhost:${PORT}`, viewport: { width: 390, height: 844 }, storageState: STATE });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  // The data folder startServerProcess would copy, with a corretor added by the CLI first.
  const dataDir = path.resolve(`.tmp/server-${PORT}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.cpSync(TEMPLATE_DIR, dataDir, { recursive: true });
  fs.rmSync(path.join(dataDir, "pglite.lock"), { force: true });
  const cli = spawnSync(
    process.execPath,
    ["--import", "tsx", "server/cli.ts", "user:create", "--email", CORRETOR.email, "--name", CORRETOR.name, "--password", CORRETOR.password, "--role", "corretor"],
    { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" }, encoding: "utf8" },
  );
  expect(cli.status, cli.stderr + cli.stdout).toBe(0);
  server = await startServerProcess({
    port: PORT,
    keepData: true,
    env: { ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, BACKUP_INTERVAL_HOURS: "0" },
  });
  const context = await browser.newContext({ baseURL: server.url, storageState: { cookies: [], origins: [] } });
  await signInAsAdmin(await context.newPage());
  await context.storageState({ path: STATE });
  await context.close();
});

test.afterAll(async () => {
  await server?.stop();
});

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(body: Buffer): { width: number; height: number } {
  expect(body.subarray(0, 8).toString("hex"), "PNG signature").toBe("89504e470d0a1a0a");
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

/**
 * Loads a page as the active worker sees it, so that the worker saved this load. A tab that began
 * loading while the worker was still installing stays uncontrolled (clients.claim() may miss a
 * page still being created): the second load, after `ready`, is always controlled.
 */
async function visitControlled(page: Page, url: string) {
  await page.goto(url);
  await waitForHydration(page);
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  await page.goto(url);
  await waitForHydration(page);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

async function savedPageCaches(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("crm-pages-")));
}

/** axe-core, WCAG 2 A and AA, as tests/e2e/accessibility.spec.ts runs it. */
async function expectNoViolations(page: Page, label: string) {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(summary, `${label}\n${summary.join("\n")}`).toEqual([]);
}

async function createLead(page: Page, name: string): Promise<string> {
  const created = await page.request.post("/crm/leads", {
    form: { intent: "create", full_name: name, phone: "(84) 99876-4321", interest_type: "comprar", origin: "indicacao", status: "novo" },
  });
  expect(created.ok()).toBe(true);
  await page.goto("/crm/leads");
  return (await page.getByRole("link", { name }).first().getAttribute("href"))!;
}

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto("/auth");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Senha").fill(who.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/crm/);
}

test("a CRM page links the manifest; every icon is the PNG it claims; the worker controls /crm", async ({ page }) => {
  await page.goto("/crm");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/crm/manifest.webmanifest");
  const answer = await page.request.get(href!);
  expect(answer.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = await answer.json();
  expect(manifest).toMatchObject({ short_name: "CRM", start_url: "/crm", scope: "/crm", display: "standalone", theme_color: "#0b5f7a", lang: "pt-BR" });
  expect(manifest.name).toMatch(/^CRM /);

  // Chromium's installability: a 192 px and a 512 px icon of purpose 'any', plus a maskable one.
  const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
  for (const size of ["192x192", "512x512"]) expect(icons.some((icon) => icon.sizes === size && icon.purpose === "any")).toBe(true);
  expect(icons.some((icon) => icon.sizes === "512x512" && icon.purpose === "maskable")).toBe(true);
  for (const icon of icons) {
    const file = await page.request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()["content-type"], icon.src).toBe("image/png");
    const { width, height } = pngSize(await file.body());
    expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
  }
  // The apple-touch-icon iOS uses for 'Adicionar à Tela de Início'.
  expect(pngSize(await (await page.request.get("/apple-touch-icon.png")).body())).toEqual({ width: 180, height: 180 });

  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`http://localhost:${PORT}/crm`);
  // The start URL lies inside both the manifest's scope and the worker's.
  expect(new URL(manifest.start_url, scope).href.startsWith(scope)).toBe(true);
});

test("the public site links no manifest and registers no worker, even in a browser that has the CRM's", async ({ page, browser }) => {
  await visitControlled(page, "/crm");
  for (const url of ["/", "/imoveis"]) {
    await page.goto(url);
    await waitForHydration(page);
    await expect(page.locator('link[rel="manifest"]')).toHaveCount(0);
    const state = await page.evaluate(async () => ({ controlled: navigator.serviceWorker.controller !== null, here: (await navigator.serviceWorker.getRegistration(location.href)) !== undefined }));
    expect(state, url).toEqual({ controlled: false, here: false });
  }
  // A visitor's browser: nothing registered at all.
  const visitor = await browser.newContext({ baseURL: server.url, storageState: { cookies: [], origins: [] } });
  const visitorPage = await visitor.newPage();
  for (const url of ["/", "/imoveis"]) {
    await visitorPage.goto(url);
    await waitForHydration(visitorPage);
    await expect(visitorPage.locator('link[rel="manifest"]')).toHaveCount(0);
    expect(await visitorPage.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), url).toBe(0);
  }
  await visitor.close();
});

test("a second person signing in on the same browser never reads the first one's saved pages", async ({ page, context }) => {
  const leadHref = await createLead(page, "Rui Só do Admin");
  await visitControlled(page, leadHref);
  const adminCaches = await savedPageCaches(page);
  expect(adminCaches).toHaveLength(1);

  // The admin's session ends without 'Sair' (it expired, the cookie went): the corretora signs in.
  await context.clearCookies();
  await signIn(page, CORRETOR);
  await page.goto("/crm");
  await waitForHydration(page);
  const corretorCaches = await savedPageCaches(page);
  expect(corretorCaches).toHaveLength(1);
  expect(corretorCaches[0]).not.toBe(adminCaches[0]);

  await offlineLook(context, page, leadHref);

  // 'Sair' as a page without JavaScript sends it (a plain form post): the answer's
  // Clear-Site-Data alone empties the saved pages and removes the worker.
  await page.goto("/crm");
  await waitForHydration(page);
  expect(await savedPageCaches(page)).toHaveLength(1);
  await page.evaluate(() => {
    const form = Object.assign(document.createElement("form"), { method: "post", action: "/crm/sair" });
    document.body.append(form);
    HTMLFormElement.prototype.submit.call(form);
  });
  await expect(page).toHaveURL(/\/auth/);
  await expect.poll(() => savedPageCaches(page)).toEqual([]);
  await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
});

async function offlineLook(context: BrowserContext, page: Page, leadHref: string) {
  await context.setOffline(true);
  await page.goto(leadHref);
  await expect(page.getByRole("heading", { name: "Você está sem conexão" })).toBeVisible();
  await expect(page.getByText("Rui Só do Admin")).toHaveCount(0);
  // Her own dashboard, as she last saw it, is there.
  await page.goto("/crm");
  await expect(page.getByText("Você está offline — mostrando a versão salva em")).toBeVisible();
  await expect(page.getByText(CORRETOR.name).first()).toBeAttached();
  await context.setOffline(false);
}

test("looked at: the CRM at 390 px as an installed app, the menu's 'Instalar app' on an iPhone", async ({ page, browser }) => {
  await visitControlled(page, "/crm");
  // The start URL as the installed app opens it: a headless window has no browser bar either,
  // which is what the app looks like (this Chromium's DevTools cannot emulate display-mode).
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, "pwa-standalone-dashboard-390.png") });
  await page.getByRole("button", { name: "Abrir menu" }).click();
  const menu = page.locator("#crm-menu");
  await expect(menu.getByRole("button", { name: "Instalar app" })).toHaveCount(0);
  // Chromium offers the install with beforeinstallprompt (a headless window never does on its
  // own): the event as the browser sends it, whose prompt() opens the browser's dialog.
  await page.evaluate(() => {
    const offer = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: async () => void ((window as unknown as { prompted: boolean }).prompted = true),
      userChoice: Promise.resolve({ outcome: "accepted" }),
    });
    window.dispatchEvent(offer);
  });
  await expect(menu.getByRole("button", { name: "Instalar app" })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, "pwa-standalone-menu-390.png") });
  await menu.getByRole("button", { name: "Instalar app" }).click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
  await expect(menu.getByRole("button", { name: "Instalar app" })).toHaveCount(0);

  // Safari on an iPhone offers no install prompt: the menu says how to add the app by hand.
  const iphone = await browser.newContext({
    baseURL: server.url,
    storageState: STATE,
    viewport: { width: 390, height: 844 },
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  });
  const phone = await iphone.newPage();
  await phone.goto("/crm");
  await waitForHydration(phone);
  await phone.getByRole("button", { name: "Abrir menu" }).click();
  await expect(phone.locator("#crm-menu").getByText("Toque em Compartilhar e depois em Adicionar à Tela de Início.")).toBeVisible();
  await phone.screenshot({ path: path.join(SHOTS, "pwa-iphone-menu-390.png") });
  await expectNoViolations(phone, "menu with the iPhone instructions");
  await iphone.close();
});

// Last: 'Sair' ends every session of the admin, the saved sign-in among them.
test("offline, the last-seen pages show with the banner; 'Sair' empties them", async ({ page, context }) => {
  const leadHref = await createLead(page, "Lúcia Sem Sinal");
  await visitControlled(page, "/crm");
  for (const url of ["/crm/leads", leadHref]) {
    await page.goto(url);
    await waitForHydration(page);
  }
  expect(await savedPageCaches(page)).toHaveLength(1);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: /Você está offline — mostrando a versão salva em \d\d\/\d\d\/\d{4}, \d\d:\d\d/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Lúcia Sem Sinal" })).toBeVisible();
  await waitForHydration(page);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, "pwa-offline-lead-390.png"), fullPage: false });
  await expectNoViolations(page, "saved lead page with the offline banner");

  // Following a link offline: the client router's data request fails, the saved document loads.
  await page.getByRole("button", { name: "Abrir menu" }).click();
  await page.locator("#crm-menu").getByRole("link", { name: /Leads/ }).click();
  await expect(page, "the saved leads list, after a link followed offline").toHaveURL(/\/crm\/leads$/);
  await expect(page.getByText("Você está offline — mostrando a versão salva em")).toBeVisible();
  await expect(page.getByRole("link", { name: "Lúcia Sem Sinal" }).first()).toBeVisible();

  // A page never seen: the offline page, no data.
  await page.goto("/crm/visitas");
  await expect(page.getByRole("heading", { name: "Você está sem conexão" })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, "pwa-offline-page-390.png") });
  await expectNoViolations(page, "offline page");

  await context.setOffline(false);
  await page.goto("/crm");
  await waitForHydration(page);
  await expect(page.getByText("Você está offline")).toHaveCount(0);
  await page.getByRole("button", { name: "Abrir menu" }).click();
  await page.locator("#crm-menu").getByRole("button", { name: "Sair" }).click();
  await expect(page, "/auth after 'Sair'").toHaveURL(/\/auth/);
  await expect.poll(() => savedPageCaches(page)).toEqual([]);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);

  await context.setOffline(true);
  await page.goto(leadHref).catch(() => null);
  await expect(page.getByText("Lúcia Sem Sinal")).toHaveCount(0);
  await context.setOffline(false);
});
