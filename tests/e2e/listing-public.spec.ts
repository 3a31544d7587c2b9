import fs from "node:fs";
import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * Issue 22, item 3 (decision 017): a listing with every field shows each on its page, at 390 and
 * 1280 px; /imoveis's new filters reach the URL from the form (with and without JavaScript) and
 * narrow the list; sold and rented listings leave the list unless asked for. The listings live in
 * a neighbourhood nobody else uses and are deleted at the end.
 */
test.describe.configure({ mode: "serial" });

const SHOTS = ".tmp/shots";
fs.mkdirSync(SHOTS, { recursive: true });
const NEIGHBOURHOOD = "Fichópolis";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

const base = {
  description: "Um imóvel criado pelo teste da página pública, com todos os campos do anúncio.",
  type: "apartamento",
  status: "disponivel",
  featured: false,
  bathrooms: "2",
  parking_spaces: "2",
  neighborhood: NEIGHBOURHOOD,
  city: "Natal",
  state: "RN",
  broker_partner: "",
  images: [],
};

/** For rent, every field filled (the rent's own ones included). */
const RENTAL = {
  ...base,
  codigo: "FICHA-ALUGUEL",
  title: "Apartamento completo para alugar",
  purpose: "aluguel",
  price: "2.500,00",
  area: "80",
  total_area: "110",
  bedrooms: "3",
  suites: "2",
  condo_fee: "600,00",
  iptu_yearly: "1.800,00",
  floor: "7",
  total_floors: "15",
  year_built: "2015",
  furnished: "mobiliado",
  pets_allowed: true,
  rental_guarantees: ["fiador", "caucao"],
  features: ["varanda", "ar_condicionado", "piscina", "academia", "elevador"],
};

/** For sale, with the sale's conditions. */
const SALE = {
  ...base,
  codigo: "FICHA-VENDA",
  title: "Apartamento à venda que aceita financiamento",
  purpose: "venda",
  price: "650.000,00",
  area: "140",
  bedrooms: "3",
  suites: "1",
  condo_fee: "900,00",
  furnished: "sem_mobilia",
  accepts_financing: true,
  accepts_fgts: true,
  accepts_exchange: true,
  features: ["piscina", "churrasqueira"],
};

/** Sold: off the list unless 'Mostrar vendidos/alugados'. */
const SOLD = { ...base, codigo: "FICHA-VENDIDO", title: "Apartamento já vendido", purpose: "venda", status: "vendido", price: "400.000,00", area: "60", bedrooms: "2" };

async function idsOn(request: APIRequestContext, path: string): Promise<string[]> {
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  return [...new Set((await response.text()).match(UUID) ?? [])];
}

async function cleanUp(page: Page) {
  for (const id of await idsOn(page.request, `/crm/imoveis.data?busca=${encodeURIComponent(NEIGHBOURHOOD)}`)) {
    await page.request.post("/crm/imoveis", { data: { intent: "delete", id }, headers: { "Content-Type": "application/json" } });
  }
}

const ids: Record<string, string> = {};

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  await signInAsAdmin(page);
  await cleanUp(page);
  for (const values of [RENTAL, SALE, SOLD]) {
    const response = await page.request.post("/crm/imoveis", { data: { intent: "create", values }, headers: { "Content-Type": "application/json" } });
    expect(response.status(), await response.text()).toBe(200);
    const [id] = await idsOn(page.request, `/crm/imoveis.data?busca=${values.codigo}`);
    ids[values.codigo] = id;
  }
  await page.close();
});

test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInAsAdmin(page);
  await cleanUp(page);
  await page.close();
});

/** The definition beside a term in one of the page's lists. */
const definition = (page: Page, term: string) => page.locator("dl > div").filter({ has: page.getByRole("term").getByText(term, { exact: true }) }).getByRole("definition");

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("a listing with every field shows each on its page", async ({ page }) => {
      await page.goto(`/imoveis/${ids[RENTAL.codigo]}`);
      const values = page.getByRole("region", { name: "Valores" });
      await expect(definition(page, "Aluguel")).toHaveText("R$\u00a02.500/mês");
      await expect(definition(page, "Condomínio")).toHaveText("R$\u00a0600/mês");
      await expect(definition(page, "IPTU")).toHaveText("R$\u00a01.800/anoR$\u00a0150/mês em média");
      await expect(definition(page, "Total mensal")).toContainText("R$\u00a03.250/mês");
      await expect(values).toBeVisible();

      const details = page.getByRole("region", { name: "Detalhes" });
      await expect(details).toBeVisible();
      for (const [term, value] of [
        ["Suítes", "2"],
        ["Área total", "110 m²"],
        ["Andar", "7º andar de 15"],
        ["Ano de construção", "2015"],
        ["Mobília", "Mobiliado"],
        ["Aceita animais", "Sim"],
        ["Garantias", "Fiador, Caução"],
      ]) {
        await expect(definition(page, term), term).toHaveText(value);
      }
      await expect(definition(page, "Área útil")).toHaveText("80 m²");

      const features = page.getByRole("region", { name: "Características" });
      await expect(features.getByRole("heading", { name: "Do imóvel" })).toBeVisible();
      await expect(features.getByRole("heading", { name: "Do condomínio" })).toBeVisible();
      for (const label of ["Varanda", "Ar-condicionado", "Piscina", "Academia", "Elevador"]) {
        await expect(features.getByRole("listitem").filter({ hasText: new RegExp(`^${label}$`) })).toBeVisible();
      }
      // Each feature's icon points into the sprite, at a symbol that exists there.
      const hrefs = await features.locator("use").evaluateAll((uses) => uses.map((use) => use.getAttribute("href")!));
      expect(hrefs).toHaveLength(5);
      const sprite = await (await page.request.get(hrefs[0].split("#")[0])).text();
      for (const href of hrefs) expect(sprite).toContain(`<symbol id="${href.split("#")[1]}"`);
      await expectFitsWindow(page, `the property page at ${width}`);
      await page.screenshot({ path: `${SHOTS}/listing-public-${width}-property.png`, fullPage: true });

      // A sale: its conditions as badges, no rent total, no guarantees.
      await page.goto(`/imoveis/${ids[SALE.codigo]}`);
      await expect(definition(page, "Valor de venda")).toHaveText("R$\u00a0650.000");
      for (const badge of ["Aceita financiamento", "Aceita FGTS", "Aceita permuta"]) {
        await expect(page.getByRole("list", { name: "Condições" }).getByText(badge, { exact: true })).toBeVisible();
      }
      await expect(page.getByText("Total mensal")).toHaveCount(0);
      await expect(page.getByText("Garantia")).toHaveCount(0);
      await expect(definition(page, "Mobília")).toHaveText("Sem mobília");
    });
  });
}

test.describe("filters", () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  const cards = (page: Page) => page.getByRole("article");

  test("applied through the form, they reach the URL and narrow the list; sold listings only on request", async ({ page }) => {
    await page.goto(`/imoveis?bairro=${encodeURIComponent(NEIGHBOURHOOD)}`);
    await waitForHydration(page);
    await expect(cards(page)).toHaveCount(2);
    await expect(cards(page).filter({ hasText: SOLD.title })).toHaveCount(0);

    await page.getByRole("checkbox", { name: "Mostrar vendidos/alugados", exact: true }).check();
    await expect(page).toHaveURL(/vendidos=1/);
    await expect(cards(page)).toHaveCount(3);
    await page.getByRole("checkbox", { name: "Mostrar vendidos/alugados", exact: true }).uncheck();
    await expect(page).not.toHaveURL(/vendidos=/);
    await expect(cards(page)).toHaveCount(2);

    await page.getByRole("combobox", { name: "Suítes" }).selectOption("2");
    await expect(page).toHaveURL(/suites=2/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText(RENTAL.title);
    await page.getByRole("combobox", { name: "Suítes" }).selectOption("all");
    await expect(cards(page)).toHaveCount(2);

    await page.getByRole("checkbox", { name: "Aceita financiamento", exact: true }).check();
    await expect(page).toHaveURL(/financiamento=1/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText(SALE.title);
    await page.getByRole("checkbox", { name: "Aceita financiamento", exact: true }).uncheck();

    await page.getByRole("checkbox", { name: "Mobiliado", exact: true }).check();
    await expect(page).toHaveURL(/mobiliado=1/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText(RENTAL.title);
    await page.getByRole("checkbox", { name: "Mobiliado", exact: true }).uncheck();

    await page.getByRole("spinbutton", { name: "Condomínio até (R$/mês)" }).fill("700");
    await expect(page).toHaveURL(/condominio_max=700/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText(RENTAL.title);
    await page.getByRole("spinbutton", { name: "Condomínio até (R$/mês)" }).fill("");
    await expect(page).not.toHaveURL(/condominio_max/);

    await page.getByRole("spinbutton", { name: "Mínima" }).fill("100");
    await expect(page).toHaveURL(/area_min=100/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText(SALE.title);
    await page.getByRole("spinbutton", { name: "Mínima" }).fill("");
    await expect(cards(page)).toHaveCount(2);

    // A common feature, then one under 'Mais filtros': both must be there.
    await page.getByRole("checkbox", { name: "Piscina", exact: true }).check();
    await expect(page).toHaveURL(/carac=piscina/);
    await expect(cards(page)).toHaveCount(2);
    await page.getByText("Mais filtros").click();
    await page.getByRole("checkbox", { name: "Churrasqueira", exact: true }).check();
    await expect(page).toHaveURL(/carac=churrasqueira&carac=piscina/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText(SALE.title);
    await page.screenshot({ path: `${SHOTS}/listing-public-1280-filters.png`, fullPage: true });

    // The shared link opens the same list, 'Mais filtros' open on its chosen feature.
    const shared = page.url();
    const other = await page.context().newPage();
    await other.goto(shared);
    await expect(other.getByRole("article")).toHaveCount(1);
    await expect(other.getByRole("checkbox", { name: "Churrasqueira", exact: true })).toBeChecked();
    await expect(other.getByRole("checkbox", { name: "Churrasqueira", exact: true })).toBeVisible();
    await other.close();
  });

  test("the form works without JavaScript, as a GET", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`/imoveis?bairro=${encodeURIComponent(NEIGHBOURHOOD)}`);
    await expect(page.getByRole("article")).toHaveCount(2);
    await page.getByRole("checkbox", { name: "Piscina", exact: true }).check();
    await page.getByRole("combobox", { name: "Suítes" }).selectOption("1");
    await page.getByRole("checkbox", { name: "Aceita financiamento", exact: true }).check();
    // Enter in a field submits the form, as a browser does without scripts.
    await page.getByRole("spinbutton", { name: "Mínima" }).fill("50");
    await page.getByRole("spinbutton", { name: "Mínima" }).press("Enter");
    await expect(page).toHaveURL(/carac=piscina/);
    await expect(page).toHaveURL(/suites=1/);
    await expect(page).toHaveURL(/financiamento=1/);
    await expect(page).toHaveURL(/area_min=50/);
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(page.getByRole("article")).toContainText(SALE.title);
    await context.close();
  });

  test("at 390 px the panel opens with the new filters, 'Mais filtros' inside", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`/imoveis?bairro=${encodeURIComponent(NEIGHBOURHOOD)}&carac=elevador`);
    await waitForHydration(page);
    await page.getByRole("button", { name: /Filtros/ }).click();
    await expect(page.getByRole("checkbox", { name: "Elevador", exact: true })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Elevador", exact: true })).toBeVisible();
    await expectFitsWindow(page, "/imoveis at 390 with the filters open");
    await page.screenshot({ path: `${SHOTS}/listing-public-390-filters.png`, fullPage: true });
    await context.close();
  });
});
