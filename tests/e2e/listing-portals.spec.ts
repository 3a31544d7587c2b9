import fs from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * What the portals will refuse or score down, in the CRM (issue 22, item 7; decision 022): the form's
 * 'Portais' section lists the issues as the broker types and each goes away when fixed; the CRM
 * table shows a count. The property page's JSON-LD carries the new fields, and a listing whose
 * address is hidden shows its street, number, complement and coordinates nowhere: not in the HTML,
 * not in the JSON-LD, not in the route's `.data`.
 */

test.describe.configure({ mode: "serial" });

const SHOTS = ".tmp/shots";
fs.mkdirSync(SHOTS, { recursive: true });

const code = `portais-${Date.now().toString(36)}`;
const CODE = code.toUpperCase();
const TITLE = "Apartamento com portais em Capim Macio";
const STREET = "Rua Missionário Gerson Sampaio";
const NUMBER = "8812-B";
const COMPLEMENT = "Torre B apto 1204";
const LAT = "-5.8533";
const LNG = "-35.2011";

async function jpeg(color: string, name: string) {
  const buffer = await sharp({ create: { width: 800, height: 600, channels: 3, background: color } }).jpeg().toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

const sectionLink = (dialog: Locator, name: string) => dialog.getByRole("navigation", { name: "Seções do formulário" }).getByRole("button", { name });
const issueKeys = (dialog: Locator) => dialog.getByTestId("portal-issues").locator("li").evaluateAll((items) => items.map((item) => item.getAttribute("data-issue")));

/** The public page's path: an exact code in the list's search leads straight to it. */
async function publicPath(page: Page): Promise<string> {
  await page.goto(`/imoveis?codigo=${encodeURIComponent(CODE)}`);
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  const { pathname } = new URL(page.url());
  expect(pathname).toMatch(/^\/imoveis\/[0-9a-f-]{36}$/);
  return pathname;
}

type JsonLd = { about: Record<string, unknown> & { address: Record<string, string>; geo?: { latitude: number; longitude: number } }; offers: Record<string, unknown> };

async function jsonLdOf(page: Page): Promise<JsonLd> {
  const text = await page.locator('script[type="application/ld+json"]').first().textContent();
  return JSON.parse(text ?? "null") as JsonLd;
}

test.describe("the portals' checks", () => {
  test("the form lists what the portals refuse or score down, and each goes away when fixed", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsAdmin(page);
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Novo Imóvel" }).click();
    const dialog = page.getByRole("dialog", { name: "Novo Imóvel" });
    await dialog.getByLabel("Código").pressSequentially(code);
    await dialog.getByLabel("Título").fill(TITLE);
    await dialog.getByLabel("Descrição").fill("Apartamento bom.");
    await dialog.getByLabel("Tipo").selectOption("apartamento");
    await dialog.getByLabel("Finalidade").selectOption("venda");

    await sectionLink(dialog, "Portais").click();
    await expect(dialog.getByText("O que os portais vão recusar ou pontuar menos:")).toBeVisible();
    // Refusals first, then what scores lower.
    await expect.poll(() => issueKeys(dialog)).toEqual(["photos", "description", "price", "area", "cep", "condo_fee", "iptu", "bedrooms", "bathrooms"]);
    const list = dialog.getByTestId("portal-issues");
    await expect(list.locator('li[data-issue="photos"]')).toHaveText("RejeitaSem fotos: os portais recusam anúncio sem foto");
    await expect(list.locator('li[data-issue="condo_fee"]')).toHaveText("Reduz notaApartamento sem valor de condomínio");
    await page.screenshot({ path: `${SHOTS}/listing-portals-390-issues.png` });
    await expectFitsWindow(page, "the form with its portal issues at 390 px");

    // Fixed one by one.
    await sectionLink(dialog, "Básico").click();
    await dialog.getByLabel("Descrição").fill("Apartamento nascente em Capim Macio, perto do Parque da Cidade, com varanda e lazer completo.");
    await sectionLink(dialog, "Valores").click();
    await dialog.getByLabel("Preço (R$)").fill("");
    await dialog.getByLabel("Preço (R$)").pressSequentially("52000000");
    await dialog.getByLabel("Condomínio (R$/mês)").pressSequentially("78000");
    await dialog.getByLabel("IPTU (R$/ano)").pressSequentially("180000");
    await expect.poll(() => issueKeys(dialog)).toEqual(["photos", "area", "cep", "bedrooms", "bathrooms"]);
    await sectionLink(dialog, "Características").click();
    await dialog.getByLabel("Área útil (m²)").fill("87");
    await dialog.getByLabel("Quartos").fill("3");
    await dialog.getByLabel("Banheiros").fill("2");
    await dialog.getByLabel("Ano de construção").fill("2018");
    await dialog.getByRole("group", { name: "Aceita animais" }).getByLabel("Sim").check();
    await dialog.getByRole("checkbox", { name: "Ar-condicionado" }).check();
    await sectionLink(dialog, "Condomínio").click();
    await dialog.getByLabel("Andar", { exact: true }).fill("12");
    await dialog.getByRole("checkbox", { name: "Piscina", exact: true }).check();
    await sectionLink(dialog, "Localização").click();
    await dialog.getByLabel("Bairro").fill("Capim Macio");
    await dialog.getByLabel("Endereço", { exact: true }).fill(STREET);
    await dialog.getByLabel("Número").fill(NUMBER);
    await dialog.getByLabel("Complemento").fill(COMPLEMENT);
    await dialog.getByLabel("CEP", { exact: true }).pressSequentially("59082000");
    await dialog.getByLabel("Latitude").fill(`${LAT}, ${LNG}`);
    await dialog.getByLabel("Exibir endereço no site e nos portais").check();
    await expect.poll(() => issueKeys(dialog)).toEqual(["photos"]);

    // Four photos still score lower; a Vimeo video is one the portals do not play.
    await sectionLink(dialog, "Mídia").click();
    const colors = ["#aa5533", "#3355aa", "#33aa55", "#999933"];
    await dialog.locator('input[type="file"]').setInputFiles(await Promise.all(colors.map((color, index) => jpeg(color, `foto-${index}.jpg`))));
    await expect(dialog.getByRole("list", { name: /Fotos do imóvel/ }).getByRole("listitem")).toHaveCount(4, { timeout: 60_000 });
    await dialog.getByLabel("Vídeo (YouTube ou Vimeo)").fill("https://vimeo.com/123456789");
    await expect.poll(() => issueKeys(dialog)).toEqual(["photos", "video"]);
    await expect(dialog.getByTestId("portal-issues").locator('li[data-issue="photos"]')).toHaveText("Reduz nota4 fotos: os portais pedem pelo menos 5");
    await dialog.locator('input[type="file"]').setInputFiles([await jpeg("#993399", "foto-5.jpg")]);
    await expect(dialog.getByRole("list", { name: /Fotos do imóvel/ }).getByRole("listitem")).toHaveCount(5, { timeout: 60_000 });
    await dialog.getByLabel("Vídeo (YouTube ou Vimeo)").fill("youtu.be/dQw4w9WgXcQ");
    await sectionLink(dialog, "Portais").click();
    await expect(dialog.getByText("Nada que os portais recusem ou pontuem menos.")).toBeVisible();
    await expect(dialog.getByTestId("portal-issues")).toHaveCount(0);

    await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
    await expect(page.getByText("Imóvel cadastrado com sucesso!")).toBeVisible();
  });

  test("the CRM table counts each listing's issues and still fits 1280 px", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInAsAdmin(page);
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    const table = page.getByRole("table");
    const ours = table.getByRole("row").filter({ hasText: CODE });
    await expect(ours).toHaveCount(1);
    await expect(ours.getByTestId("portal-issues-badge")).toHaveCount(0);
    // The demo listings have no IPTU or CEP: each says so with a count, and the list on hover.
    const badges = table.getByTestId("portal-issues-badge");
    expect(await badges.count()).toBeGreaterThan(0);
    await expect(badges.first()).toHaveText(/^Portais: (\d+ recusas?)?(, )?(\d+ alertas?)?$/);
    await expect(badges.first()).toHaveAttribute("title", /(Rejeita|Reduz nota): /);
    await page.screenshot({ path: `${SHOTS}/listing-portals-1280-table.png` });
    await expectFitsWindow(page, "the CRM properties table at 1280 px");
  });

  test("the property page's JSON-LD carries the new fields, with the position when the address is shown", async ({ page }) => {
    const path = await publicPath(page);
    await page.goto(path);
    const json = await jsonLdOf(page);
    expect(json.offers).toMatchObject({ "@type": "Offer", price: 520000, priceCurrency: "BRL" });
    expect(json.about).toMatchObject({
      "@type": "Apartment",
      numberOfBedrooms: 3,
      numberOfBathroomsTotal: 2,
      floorSize: { "@type": "QuantitativeValue", value: 87, unitCode: "MTK" },
      floorLevel: "12º andar",
      yearBuilt: 2018,
      petsAllowed: true,
      amenityFeature: [
        { "@type": "LocationFeatureSpecification", name: "Ar-condicionado", value: true },
        { "@type": "LocationFeatureSpecification", name: "Piscina", value: true },
      ],
      geo: { "@type": "GeoCoordinates", latitude: Number(LAT), longitude: Number(LNG) },
      address: { streetAddress: `${STREET}, ${NUMBER}, ${COMPLEMENT}`, postalCode: "59082-000", addressLocality: "Natal" },
    });
    // Shown: the same searches as below find them (so those searches can fail).
    expect(await (await page.request.get(path)).text()).toContain(STREET);
    expect(await (await page.request.get(`${path}.data`)).text()).toContain(LAT.slice(1));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/listing-portals-390-page.png` });
  });

  test("'Exibir endereço' off: no street, number, complement or coordinates in the HTML, the JSON-LD or .data", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInAsAdmin(page);
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    await page.getByRole("button", { name: `Editar ${CODE}` }).first().click();
    const edit = page.getByRole("dialog", { name: "Editar Imóvel" });
    await edit.getByLabel("Exibir endereço no site e nos portais").uncheck();
    await edit.getByRole("button", { name: "Salvar Alterações" }).click();
    await expect(edit).toBeHidden();

    const path = await publicPath(page);
    const secrets = [STREET, NUMBER, COMPLEMENT, LAT, LNG, LAT.replace("-", ""), LNG.replace("-", "")];
    await expect.poll(async () => (await page.request.get(path)).text()).not.toContain(STREET);
    const html = await (await page.request.get(path)).text();
    const data = await (await page.request.get(`${path}.data`)).text();
    expect(data).toContain(TITLE); // the right document
    for (const secret of secrets) {
      expect(html, `HTML holds ${secret}`).not.toContain(secret);
      expect(data, `.data holds ${secret}`).not.toContain(secret);
    }
    await page.goto(path);
    const json = await jsonLdOf(page);
    expect(json.about).not.toHaveProperty("geo");
    expect(json.about.address.streetAddress).toBe("Capim Macio");
    expect(json.about.address).not.toHaveProperty("postalCode");
    for (const secret of secrets) expect(JSON.stringify(json)).not.toContain(secret);
  });
});
