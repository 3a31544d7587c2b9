import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { signInAsAdmin, waitForHydration } from "./helpers";

/**
 * Walks the pages of /imoveis and of the CRM's tables, with filters and searches kept in the URL.
 * The shared server holds 14 demo listings: this file adds listings and leads of its own, with a
 * neighbourhood and names nobody else uses, and deletes them at the end.
 */
test.describe.configure({ mode: "serial" });

const NEIGHBOURHOOD = "Paginópolis";
const LISTINGS = 26; // 12 + 12 + 2 on /imoveis; 25 + 1 in the CRM
const LEAD_NAME = "Pessoa Paginada";
const LEADS = 30; // 27 perdido (25 + 2) and 3 novo

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The ids a CRM screen's data holds (its `.data` answer), for cleaning up what this file made. */
async function idsOn(request: APIRequestContext, path: string): Promise<string[]> {
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  return [...new Set((await response.text()).match(UUID) ?? [])];
}

async function post(request: APIRequestContext, path: string, data: Record<string, unknown>) {
  const response = await request.post(path, { data, headers: { "Content-Type": "application/json" } });
  expect(response.status(), await response.text()).toBe(200);
}

async function cleanUp(page: Page) {
  for (const id of await idsOn(page.request, `/crm/imoveis.data?busca=${encodeURIComponent(NEIGHBOURHOOD)}`)) {
    await page.request.post("/crm/imoveis", { data: { intent: "delete", id }, headers: { "Content-Type": "application/json" } });
  }
  for (const status of ["perdido", "novo"]) {
    for (const id of await idsOn(page.request, `/crm/leads.data?status=${status}&busca=${encodeURIComponent(LEAD_NAME)}`)) {
      await page.request.post("/crm/leads", { data: { intent: "delete", id }, headers: { "Content-Type": "application/json" } });
    }
  }
}

test.beforeAll(async ({ browser }) => {
  // 56 records made one request at a time, after a sign-in: the hook once ran out of its minute
  // in CI (at the sign-in, not reproduced since); a busy machine gets more room.
  test.setTimeout(120_000);
  const page = await browser.newPage();
  await signInAsAdmin(page);
  await cleanUp(page);
  for (let index = 1; index <= LISTINGS; index++) {
    await post(page.request, "/crm/imoveis", {
      intent: "create",
      values: {
        codigo: `PAG-${String(index).padStart(2, "0")}`,
        title: `Terreno paginado número ${index}`,
        description: "Um terreno criado pelo teste de paginação.",
        type: "terreno",
        purpose: "venda",
        status: "disponivel",
        featured: false,
        price: "100.000,00",
        area: "300",
        bedrooms: "",
        bathrooms: "",
        parking_spaces: "",
        neighborhood: NEIGHBOURHOOD,
        city: "Natal",
        state: "RN",
        broker_partner: "",
        images: [],
      },
    });
  }
  for (let index = 1; index <= LEADS; index++) {
    await post(page.request, "/crm/leads", {
      intent: "create",
      values: {
        full_name: `${LEAD_NAME} ${String(index).padStart(2, "0")}`,
        phone: `(84) 97777-${String(index).padStart(4, "0")}`,
        email: `paginada${index}@teste.com`,
        interest_type: "comprar",
        property_type: null,
        origin: "outro",
        status: index % 9 === 0 ? "novo" : "perdido",
        // Issue 24: a lost lead says why.
        lost_reason: index % 9 === 0 ? "" : "Sem resposta",
        notes: "",
      },
    });
  }
  await page.close();
});

test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signInAsAdmin(page);
  await cleanUp(page);
  await page.close();
});

const pager = (page: Page) => page.getByRole("navigation", { name: "Paginação" });

test("/imoveis walks its pages with a filter kept, by plain links, without JavaScript too", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/imoveis?bairro=${encodeURIComponent("paginopolis")}`);
  await expect(page.getByText(`${LISTINGS} imóveis encontrados`)).toBeVisible();
  await expect(page.locator("main ul li a[href^='/imoveis/']").first()).toBeVisible();
  const cards = page.getByRole("heading", { level: 3 });
  await expect(cards).toHaveCount(12);
  await expect(pager(page).getByRole("link", { name: "Página 1" })).toHaveAttribute("aria-current", "page");
  const seen = new Set(await cards.allTextContents());

  await pager(page).getByRole("link", { name: /Próxima/ }).click();
  await expect(page).toHaveURL(/bairro=paginopolis.*pagina=2|pagina=2.*bairro=paginopolis/);
  await expect(pager(page).getByRole("link", { name: "Página 2" })).toHaveAttribute("aria-current", "page");
  await expect(cards).toHaveCount(12);
  for (const title of await cards.allTextContents()) seen.add(title);

  await pager(page).getByRole("link", { name: "Página 3" }).click();
  await expect(cards).toHaveCount(2);
  for (const title of await cards.allTextContents()) seen.add(title);
  // Every listing once, none twice, across the pages.
  expect(seen.size).toBe(LISTINGS);
  await expect(page.getByText(`${LISTINGS} imóveis encontrados`)).toBeVisible();
  await expect(page.locator('link[rel="prev"]')).toHaveAttribute("href", /pagina=2/);

  await pager(page).getByRole("link", { name: /Anterior/ }).click();
  await expect(page).toHaveURL(/pagina=2/);

  // A page past the end shows the last one; a malformed page the first.
  await page.goto("/imoveis?bairro=paginopolis&pagina=99");
  await expect(cards).toHaveCount(2);
  const malformed = await page.goto("/imoveis?bairro=paginopolis&pagina=abc");
  expect(malformed?.status()).toBe(200);
  await expect(cards).toHaveCount(12);
  await context.close();
});

test("/imoveis: changing a filter on page 2 starts again at page 1 (with JavaScript)", async ({ page }) => {
  await page.goto("/imoveis?bairro=paginopolis&pagina=2");
  await waitForHydration(page);
  await expect(pager(page).getByRole("link", { name: "Página 2" })).toHaveAttribute("aria-current", "page");
  await page.getByLabel("Tipo").selectOption("terreno");
  await expect(page).toHaveURL(/tipo=terreno/);
  expect(new URL(page.url()).searchParams.get("pagina")).toBeNull();
  await expect(pager(page).getByRole("link", { name: "Página 1" })).toHaveAttribute("aria-current", "page");
  await pager(page).getByRole("link", { name: "Página 2" }).click();
  await expect(page).toHaveURL(/tipo=terreno/);
  await expect(page).toHaveURL(/pagina=2/);
});

test.describe("the CRM's tables", () => {
  test.beforeEach(async ({ page }) => {
    await signInAsAdmin(page);
  });

  test("properties: search by neighbourhood and code, then the pages", async ({ page }) => {
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    await page.getByLabel("Buscar imóveis").fill("paginopolis");
    await expect(page).toHaveURL(/busca=paginopolis/);
    await expect(page.getByText(`${LISTINGS} imóveis encontrados`)).toBeVisible();
    const rows = page.locator("table tbody tr");
    await expect(rows).toHaveCount(25);
    await pager(page).getByRole("link", { name: "Página 2" }).click();
    await expect(page).toHaveURL(/busca=paginopolis/);
    await expect(page).toHaveURL(/pagina=2/);
    await expect(rows).toHaveCount(1);
    await expect(page.getByLabel("Buscar imóveis")).toHaveValue("paginopolis");

    await page.getByLabel("Buscar imóveis").fill("pag-07");
    await expect(page).toHaveURL(/busca=pag-07/);
    expect(new URL(page.url()).searchParams.get("pagina")).toBeNull();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("PAG-07");
    await expect(pager(page)).toHaveCount(0);
  });

  test("leads: status filter and search kept across pages", async ({ page }) => {
    await page.goto("/crm/leads");
    await waitForHydration(page);
    await page.getByLabel("Status").selectOption("perdido");
    await expect(page).toHaveURL(/status=perdido/);
    await page.getByLabel("Buscar leads").fill(LEAD_NAME);
    await expect(page).toHaveURL(/busca=Pessoa/);
    const perdidos = LEADS - Math.floor(LEADS / 9);
    await expect(page.getByText(new RegExp(`^${perdidos} leads com status Perdido`))).toBeVisible();
    const rows = page.locator("table tbody tr");
    await expect(rows).toHaveCount(Math.min(25, perdidos));
    await pager(page).getByRole("link", { name: /Próxima/ }).click();
    await expect(page).toHaveURL(/pagina=2/);
    await expect(page).toHaveURL(/status=perdido/);
    await expect(rows).toHaveCount(perdidos - 25);
    await expect(page.getByLabel("Status")).toHaveValue("perdido");

    // By phone digits alone.
    await page.getByLabel("Buscar leads").fill("977770005");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`${LEAD_NAME} 05`);
  });

  test("users: the search narrows the accounts", async ({ page }) => {
    await page.goto("/crm/usuarios");
    await waitForHydration(page);
    await page.getByLabel("Buscar usuários").fill("admin@teste");
    await expect(page).toHaveURL(/busca=admin%40teste|busca=admin@teste/);
    await expect(page.getByText(/^1 conta para/)).toBeVisible();
    await page.getByLabel("Buscar usuários").fill("ninguem-com-este-nome");
    await expect(page.getByText("Nenhum usuário encontrado para esta busca")).toBeVisible();
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });
    test("leads become cards and the pages still walk", async ({ page }) => {
      await page.goto(`/crm/leads?status=perdido&busca=${encodeURIComponent(LEAD_NAME)}`);
      await expect(page.locator("table")).toBeHidden();
      await expect(page.locator("ul li").filter({ hasText: LEAD_NAME })).toHaveCount(25);
      await pager(page).getByRole("link", { name: "Página 2" }).click();
      await expect(page).toHaveURL(/pagina=2/);
      await expect(page.locator("ul li").filter({ hasText: LEAD_NAME })).toHaveCount(LEADS - Math.floor(LEADS / 9) - 25);
    });
  });
});
