import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { signInAsAdmin, waitForHydration } from "./helpers";
import { E2E_TILE_PORT } from "./tile-server";

/**
 * Location and map (issue 22, item 4; docs/decisions/018): the broker sets a position by dragging
 * the pin; a visitor's property page loads no map code until the map scrolls into view, then shows
 * tiles from the test's own tile server and, for a hidden address, a circle — the exact point in
 * neither the HTML nor `.data`; the /imoveis 'Mapa' view holds the same listings as the list.
 */

test.describe.configure({ mode: "serial" });

const SHOTS = ".tmp/shots";
fs.mkdirSync(SHOTS, { recursive: true });
const code = `MAPA-${Date.now().toString(36).toUpperCase()}`;
let exact = { latitude: "", longitude: "" };
let listingPath = "";

const isMapCode = (url: string) => /\/assets\/[^/]*(leaflet|results-map)[^/]*\.js$/i.test(new URL(url).pathname);
const isTile = (url: string) => new URL(url).port === String(E2E_TILE_PORT);

function watchRequests(page: Page) {
  const seen: string[] = [];
  const tilesOk: string[] = [];
  page.on("request", (request) => seen.push(request.url()));
  page.on("requestfinished", async (request) => {
    if (isTile(request.url()) && (await request.response())?.status() === 200) tilesOk.push(request.url());
  });
  return { seen, tilesOk };
}

test("the broker drags the pin in 'Localização' and the position is saved", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  await page.goto("/crm/imoveis");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Novo Imóvel" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo Imóvel" });
  await dialog.getByLabel("Código").fill(code);
  await dialog.getByLabel("Título").fill("Casa com posição no mapa");
  await dialog.getByLabel("Descrição").fill("Casa térrea com quintal, perto da lagoa, para testar o mapa do anúncio.");
  await dialog.getByLabel("Tipo").selectOption("casa");
  await dialog.getByLabel("Finalidade").selectOption("venda");
  await dialog.getByLabel("Preço (R$)").fill("");
  await dialog.getByLabel("Preço (R$)").pressSequentially("45000000");
  await dialog.getByLabel("Bairro").fill("Lagoa Nova");
  await dialog.getByLabel("Endereço", { exact: true }).fill("Rua Escondida do Teste");

  const picker = dialog.locator("[data-pin-picker]");
  await picker.scrollIntoViewIfNeeded();
  await expect(picker).toHaveAttribute("data-pin-picker", "ready");
  const latitude = dialog.getByLabel("Latitude");
  const longitude = dialog.getByLabel("Longitude");
  await expect(latitude).toHaveValue("");
  // A tap places the pin; the fields follow.
  const box = (await picker.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(latitude).not.toHaveValue("");
  const placed = await latitude.inputValue();
  // Dragging it moves it.
  const pin = picker.locator(".leaflet-marker-icon");
  const pinBox = (await pin.boundingBox())!;
  await page.mouse.move(pinBox.x + pinBox.width / 2, pinBox.y + pinBox.height / 2);
  await page.mouse.down();
  await page.mouse.move(pinBox.x + pinBox.width / 2 + 40, pinBox.y + pinBox.height / 2 + 30, { steps: 8 });
  await page.mouse.up();
  await expect(latitude).not.toHaveValue(placed);
  exact = { latitude: await latitude.inputValue(), longitude: await longitude.inputValue() };
  expect(Number(exact.latitude)).toBeLessThan(-5);
  expect(Number(exact.longitude)).toBeLessThan(-35);
  await picker.screenshot({ path: `${SHOTS}/map-crm-location-390.png` });
  await dialog.getByRole("region", { name: "Mapa para marcar a posição do imóvel" }).evaluate((element) => element.closest("section")?.scrollIntoView());
  await page.screenshot({ path: `${SHOTS}/map-crm-location-section-390.png` });

  // 'Remover posição' clears both fields; typing them back (the keyboard way) is accepted too.
  await dialog.getByRole("button", { name: "Remover posição" }).click();
  await expect(latitude).toHaveValue("");
  await expect(longitude).toHaveValue("");
  await latitude.fill(exact.latitude);
  await longitude.fill(exact.longitude);
  await expect(dialog.getByLabel("Exibir endereço no site e nos portais")).not.toBeChecked();

  await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
  await expect(page.getByText("Imóvel cadastrado com sucesso!")).toBeVisible();
  // Saved: the edit dialog reads the position back.
  await page.getByRole("listitem").filter({ hasText: code }).getByRole("button", { name: /Editar/ }).first().click();
  const edit = page.getByRole("dialog", { name: /Editar/ });
  await expect(edit.getByLabel("Latitude")).toHaveValue(exact.latitude);
  await expect(edit.getByLabel("Longitude")).toHaveValue(exact.longitude);
});

for (const width of [390, 1280]) {
  test(`a hidden address's page at ${width} px: no map code before scrolling, then tiles from the test server and a circle`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    if (!listingPath) {
      const response = await page.request.get(`/imoveis?codigo=${code}`, { maxRedirects: 0 });
      listingPath = new URL(response.headers().location!, "http://x").pathname;
    }
    expect(listingPath).toMatch(/^\/imoveis\/[0-9a-f-]{36}$/);
    const { seen, tilesOk } = watchRequests(page);
    await page.goto(listingPath);
    await waitForHydration(page);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 800)));
    const map = page.getByRole("region", { name: /Mapa da região aproximada do imóvel/ });
    await expect(map).not.toBeInViewport();
    expect(seen.filter(isMapCode), "map code before the map is in view").toEqual([]);
    expect(seen.filter(isTile)).toEqual([]);

    await map.scrollIntoViewIfNeeded();
    await expect(page.locator("[data-map-ready]")).toBeVisible();
    await expect(page.locator("[data-map-circle]")).toBeVisible();
    await expect(page.locator("[data-map-circle] path.leaflet-interactive, [data-map-circle] path")).toHaveCount(1);
    await expect.poll(() => tilesOk.length).toBeGreaterThan(0);
    expect(seen.filter(isMapCode).length).toBeGreaterThan(0);
    // Every tile came from the test's own server: nothing reached the internet.
    const outside = seen.filter((url) => !/^http:\/\/(localhost|127\.0\.0\.1)[:/]/.test(url) && !url.startsWith("data:"));
    expect(outside).toEqual([]);
    await expect(page.getByText("© colaboradores do OpenStreetMap")).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/map-property-${width}.png` });
    await context.close();
  });
}

test("the exact coordinates and the street of a hidden address are nowhere in the page or its data", async ({ page }) => {
  const html = await (await page.request.get(listingPath)).text();
  const dataText = await (await page.request.get(`${listingPath}.data`)).text();
  const mapView = await (await page.request.get(`/imoveis?bairro=Lagoa%20Nova&visualizacao=mapa`)).text();
  const mapData = await (await page.request.get(`/imoveis.data?bairro=Lagoa%20Nova&visualizacao=mapa`)).text();
  // The JSON-LD is in the HTML; the map's circle centre is there too, and must differ.
  expect(html).toContain("application/ld+json");
  for (const [name, body] of [["html", html], [".data", dataText], ["map view", mapView], ["map view .data", mapData]] as const) {
    for (const secret of [exact.latitude, exact.longitude, "Rua Escondida do Teste"]) {
      expect(body.includes(secret), `${secret} in the ${name}`).toBe(false);
    }
  }
});

async function listIds(page: Page, query: string): Promise<string[]> {
  const ids = new Set<string>();
  for (let pageNumber = 1; pageNumber < 50; pageNumber++) {
    const html = await (await page.request.get(`/imoveis?${query}&pagina=${pageNumber}`)).text();
    const found = [...html.matchAll(/href="\/imoveis\/([0-9a-f-]{36})"/g)].map((match) => match[1]);
    const before = ids.size;
    for (const id of found) ids.add(id);
    if (ids.size === before) break;
  }
  return [...ids].sort();
}

test("the 'Mapa' view shows the same listings as the list, as clustered pins that link to them", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const query = "finalidade=venda";
  const listed = await listIds(page, query);
  expect(listed.length).toBeGreaterThan(1);

  await page.goto(`/imoveis?${query}`);
  await waitForHydration(page);
  await page.getByRole("navigation", { name: "Visualização dos resultados" }).getByRole("link", { name: "Mapa" }).click();
  await expect(page).toHaveURL(/visualizacao=mapa/);
  await expect(page).toHaveURL(/finalidade=venda/);
  await expect(page.locator("[data-map-ready]")).toBeVisible();

  const mapped = (await page.locator("[data-map-list] a").evaluateAll((links) => links.map((link) => link.getAttribute("href")!.split("/").pop()!))).sort();
  const withoutPosition = listed.filter((id) => !mapped.includes(id));
  expect(mapped.every((id) => listed.includes(id))).toBe(true);
  if (withoutPosition.length > 0) await expect(page.getByText(`${withoutPosition.length} ${withoutPosition.length === 1 ? "imóvel sem localização não aparece" : "imóveis sem localização não aparecem"}`)).toBeVisible();
  expect(mapped.length).toBeGreaterThan(0);

  // On the map: single pins plus the clusters' counts are exactly the mapped listings.
  const pins = await page.locator("a[data-map-pin]").evaluateAll((links) => links.map((link) => link.getAttribute("href")!.split("/").pop()!));
  const clustered = await page.locator(".map-cluster-button").evaluateAll((buttons) => buttons.reduce((sum, button) => sum + Number(button.textContent), 0));
  expect(pins.length + clustered).toBe(mapped.length);
  for (const id of pins) expect(mapped).toContain(id);
  await page.screenshot({ path: `${SHOTS}/map-results-1280.png` });

  // A cluster zooms in: some of its listings become pins of their own (pins outside the new view
  // may leave it, so their number alone says nothing). A pin opens its listing (found by its href:
  // the pins are redrawn as the map moves).
  if (clustered > 0) {
    await page.locator(".map-cluster-button").first().click();
    const pinIds = () => page.locator("a[data-map-pin]").evaluateAll((links) => links.map((link) => link.getAttribute("href")!.split("/").pop()!));
    await expect.poll(async () => (await pinIds()).some((id) => !pins.includes(id))).toBe(true);
  }
  const id = (await page.locator("a[data-map-pin]").first().getAttribute("href"))!.split("/").pop()!;
  const pin = page.locator(`a[data-map-pin][href="/imoveis/${id}"]`);
  // By keyboard: pins may overlap, and a click at a pin's centre can land on its neighbour.
  await pin.focus();
  await pin.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/imoveis/${id}$`));

  // 'Lista' goes back to the list with the same filters.
  await page.goto(`/imoveis?${query}&visualizacao=mapa`);
  await page.getByRole("navigation", { name: "Visualização dos resultados" }).getByRole("link", { name: "Lista" }).click();
  await expect(page).toHaveURL(/\/imoveis\?finalidade=venda$/);
});

test("the 'Mapa' view at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/imoveis?visualizacao=mapa");
  await waitForHydration(page);
  await expect(page.locator("[data-map-ready]")).toBeVisible();
  await page.locator("[data-map-ready]").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/map-results-390.png` });
});
