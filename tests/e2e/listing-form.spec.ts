import { parse } from "csv-parse/sync";
import fs from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * The listing as the portals know it (issue 22), through the CRM's form on a phone: every section
 * filled by tapping and typing, the values saved (read back from the edit dialog and the export),
 * errors taking the broker to their section, and nothing wider than the window.
 */

test.describe.configure({ mode: "serial" });

const SHOTS = ".tmp/shots";
fs.mkdirSync(SHOTS, { recursive: true });

async function jpeg(color: string, name: string) {
  const buffer = await sharp({ create: { width: 1200, height: 900, channels: 3, background: color } }).jpeg().toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

async function openNewListing(page: Page): Promise<Locator> {
  await signInAsAdmin(page);
  await page.goto("/crm/imoveis");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Novo Imóvel" }).click();
  const dialog = page.getByRole("dialog", { name: "Novo Imóvel" });
  await expect(dialog).toBeVisible();
  return dialog;
}

const sectionLink = (dialog: Locator, name: string | RegExp) => dialog.getByRole("navigation", { name: "Seções do formulário" }).getByRole("button", { name });

const code = `ap-e2e-${Date.now().toString(36)}`;

test.describe("the listing form on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a broker fills every section through the form, and every value is saved", async ({ page }) => {
    const dialog = await openNewListing(page);
    const meter = dialog.getByRole("meter", { name: "Completude do anúncio" });
    await expect(meter).toHaveAttribute("aria-valuenow", "0");
    await page.screenshot({ path: `${SHOTS}/listing-form-390-empty.png` });

    // Each section is reachable from the header; its title takes the keyboard.
    await sectionLink(dialog, "Mídia").click();
    await expect(dialog.getByRole("heading", { name: "Mídia" })).toBeFocused();
    await sectionLink(dialog, "Básico").click();
    await expect(dialog.getByRole("heading", { name: "Básico" })).toBeFocused();

    // Básico.
    await dialog.getByLabel("Código").pressSequentially(code);
    await dialog.getByLabel("Título").fill("Apartamento nascente em Ponta Negra");
    await dialog
      .getByLabel("Descrição")
      .fill("Apartamento nascente a duas quadras da praia de Ponta Negra, com varanda gourmet voltada para o Morro do Careca, cozinha planejada e dependência completa. ".repeat(2));
    await dialog.getByLabel("Tipo").selectOption("apartamento");
    await dialog.getByLabel("Finalidade").selectOption("venda");

    // Valores: IPTU is typed per year and shown per month too.
    await sectionLink(dialog, "Valores").click();
    const price = dialog.getByLabel("Preço (R$)");
    await price.fill("");
    await price.pressSequentially("78000000");
    await expect(price).toHaveValue("780.000,00");
    await dialog.getByLabel("Condomínio (R$/mês)").pressSequentially("115000");
    await expect(dialog.getByLabel("Condomínio (R$/mês)")).toHaveValue("1.150,00");
    await dialog.getByLabel("IPTU (R$/ano)").pressSequentially("240000");
    await expect(dialog.getByText("Por ano, como no carnê da prefeitura. Por mês: R$ 200.")).toBeVisible();
    await dialog.getByRole("group", { name: "Aceita financiamento" }).getByLabel("Sim").check();
    await dialog.getByRole("group", { name: "Aceita FGTS" }).getByLabel("Sim").check();
    await dialog.getByRole("group", { name: "Aceita permuta" }).getByLabel("Não", { exact: true }).check();
    // Rental guarantees belong to rentals only.
    await expect(dialog.getByRole("group", { name: "Garantias aceitas" })).toHaveCount(0);

    // Características, with the home's features found by typing.
    await sectionLink(dialog, "Características").click();
    await dialog.getByLabel("Área útil (m²)").fill("98");
    await dialog.getByLabel("Área total (m²)").fill("125");
    await dialog.getByLabel("Quartos").fill("3");
    await dialog.getByLabel("Suítes").fill("1");
    await dialog.getByLabel("Banheiros").fill("2");
    await dialog.getByLabel("Vagas").fill("2");
    await dialog.getByLabel("Ano de construção").fill("2014");
    await dialog.getByLabel("Mobília").selectOption("semimobiliado");
    await dialog.getByRole("group", { name: "Aceita animais" }).getByLabel("Sim").check();
    const homeSearch = dialog.getByLabel("Buscar nas características do imóvel");
    await homeSearch.fill("gourm");
    await expect(dialog.getByRole("checkbox", { name: "Varanda", exact: true })).toBeHidden();
    await dialog.getByRole("checkbox", { name: "Varanda gourmet" }).check();
    await homeSearch.fill("");
    await dialog.getByRole("checkbox", { name: "Ar-condicionado" }).check();
    await dialog.getByRole("checkbox", { name: "Vista para o mar" }).check();
    await page.screenshot({ path: `${SHOTS}/listing-form-390-features.png` });

    // Condomínio: the andar (a flat) and the building's amenities.
    await sectionLink(dialog, "Condomínio").click();
    await dialog.getByLabel("Andar", { exact: true }).fill("8");
    await dialog.getByLabel("Total de andares").fill("15");
    await dialog.getByLabel("Buscar nas características do condomínio").fill("PISC");
    await dialog.getByRole("checkbox", { name: "Piscina", exact: true }).check();
    await dialog.getByLabel("Buscar nas características do condomínio").fill("");
    for (const name of ["Academia", "Elevador", "Portaria 24h"]) await dialog.getByRole("checkbox", { name, exact: true }).check();
    await expect(dialog.getByText("(4 marcadas)")).toBeVisible();

    // Localização: a position pasted from a map app fills both coordinates.
    await sectionLink(dialog, "Localização").click();
    await dialog.getByLabel("Bairro").fill("Ponta Negra");
    await dialog.getByLabel("Endereço", { exact: true }).fill("Rua Praia de Ponta Negra");
    await dialog.getByLabel("Número").fill("1200");
    await dialog.getByLabel("Complemento").fill("Apto 802");
    await dialog.getByLabel("CEP", { exact: true }).pressSequentially("59090000");
    await dialog.getByLabel("Latitude").fill("-5.8826, -35.1664");
    await expect(dialog.getByLabel("Latitude")).toHaveValue("-5.8826");
    await expect(dialog.getByLabel("Longitude")).toHaveValue("-35.1664");

    // Mídia.
    await sectionLink(dialog, "Mídia").click();
    await dialog.locator('input[type="file"]').setInputFiles([await jpeg("#aa5533", "fachada.jpg"), await jpeg("#3355aa", "sala.jpg")]);
    await expect(dialog.getByRole("list", { name: /Fotos do imóvel/ }).getByRole("listitem")).toHaveCount(2, { timeout: 30_000 });
    await dialog.getByLabel("Vídeo (YouTube ou Vimeo)").fill("youtu.be/dQw4w9WgXcQ");
    await dialog.getByLabel("Tour 360°").fill("https://my.matterport.com/show/?m=SxQL3iGyoDo");

    // Portais: on by default; the form says what still keeps it out (nothing here).
    await sectionLink(dialog, "Portais").click();
    // Only the form's body scrolls: the title, the meter and the section links stay in view.
    await expect(dialog.getByRole("heading", { name: "Novo Imóvel" })).toBeInViewport();
    await expect(dialog.getByRole("button", { name: "Cadastrar Imóvel" })).toBeInViewport();
    await expect(dialog.getByLabel("Publicar nos portais")).toBeChecked();
    await expect(dialog.getByText("Este anúncio vai para os portais ao salvar.")).toBeVisible();

    // The meter counts what the portals reward: only photos are missing now (2 of 10).
    await expect(dialog.getByTestId("completeness-text")).toHaveText("Anúncio 80% completo — falta: 8 fotos");
    await page.screenshot({ path: `${SHOTS}/listing-form-390-filled.png` });
    await expectFitsWindow(page, "the filled form at 390 px");

    await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
    await expect(page.getByText("Imóvel cadastrado com sucesso!")).toBeVisible();
    await expect(dialog).toBeHidden();

    // The list's card: the cover, the price, the completeness.
    const card = page.getByRole("listitem").filter({ hasText: code.toUpperCase() });
    await expect(card.getByRole("img", { name: "Capa de Apartamento nascente em Ponta Negra" })).toHaveAttribute("src", /\/200\.webp$/);
    await expect(card).toContainText("R$ 780.000");
    await expect(card).toContainText("Anúncio 80% completo — falta: 8 fotos");
    await page.screenshot({ path: `${SHOTS}/listing-list-390.png` });

    // Saved: the edit dialog opens with every value.
    await card.getByRole("button", { name: `Editar ${code.toUpperCase()}` }).click();
    const edit = page.getByRole("dialog", { name: "Editar Imóvel" });
    await expect(edit.getByLabel("Condomínio (R$/mês)")).toHaveValue("1.150,00");
    await expect(edit.getByLabel("IPTU (R$/ano)")).toHaveValue("2.400,00");
    await expect(edit.getByRole("group", { name: "Aceita financiamento" }).getByLabel("Sim")).toBeChecked();
    await expect(edit.getByRole("group", { name: "Aceita permuta" }).getByLabel("Não", { exact: true })).toBeChecked();
    await expect(edit.getByLabel("Área total (m²)")).toHaveValue("125");
    await expect(edit.getByLabel("Suítes")).toHaveValue("1");
    await expect(edit.getByLabel("Mobília")).toHaveValue("semimobiliado");
    await expect(edit.getByRole("group", { name: "Aceita animais" }).getByLabel("Sim")).toBeChecked();
    for (const name of ["Varanda gourmet", "Ar-condicionado", "Vista para o mar", "Piscina", "Academia", "Elevador", "Portaria 24h"]) {
      await expect(edit.getByRole("checkbox", { name, exact: true })).toBeChecked();
    }
    await expect(edit.getByRole("checkbox", { name: "Sauna", exact: true })).not.toBeChecked();
    await expect(edit.getByLabel("Andar", { exact: true })).toHaveValue("8");
    await expect(edit.getByLabel("Total de andares")).toHaveValue("15");
    await expect(edit.getByLabel("Número")).toHaveValue("1200");
    await expect(edit.getByLabel("Complemento")).toHaveValue("Apto 802");
    await expect(edit.getByLabel("Latitude")).toHaveValue("-5.8826");
    await expect(edit.getByLabel("Vídeo (YouTube ou Vimeo)")).toHaveValue("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    await expect(edit.getByLabel("Tour 360°")).toHaveValue("https://my.matterport.com/show/?m=SxQL3iGyoDo");
    await edit.getByRole("button", { name: "Cancelar" }).click();

    // And in the database, as the export reads it.
    const csv = await (await page.request.get(`/crm/imoveis/exportar?formato=csv&busca=${code}`)).text();
    // Read as a spreadsheet would: fields with a comma come quoted.
    const [cells] = parse(csv, { bom: true, delimiter: ";", columns: true }) as Record<string, string>[];
    expect(cells).toMatchObject({
      "Condomínio (R$/mês)": "1150,00",
      "IPTU (R$/ano)": "2400,00",
      "Área total (m²)": "125",
      Suítes: "1",
      Andar: "8",
      "Total de andares": "15",
      "Ano de construção": "2014",
      Mobília: "Semimobiliado",
      "Aceita animais": "Sim",
      "Aceita financiamento": "Sim",
      "Aceita FGTS": "Sim",
      "Aceita permuta": "Não",
      Características: "Varanda gourmet, Ar-condicionado, Vista para o mar, Piscina, Academia, Portaria 24h, Elevador",
      Número: "1200",
      Complemento: "Apto 802",
    });
  });

  test("what the broker typed shows on the property page, narrows the filters and fills the JSON-LD", async ({ page }) => {
    // An exact code on the list opens the listing's page.
    await page.goto(`/imoveis?codigo=${code}`);
    await expect(page).toHaveURL(/\/imoveis\/[0-9a-f-]{36}$/);
    const id = /\/imoveis\/([0-9a-f-]{36})$/.exec(page.url())![1];
    const main = page.locator("main");
    // Valores, Detalhes and Características (decision 017).
    for (const text of ["R$ 780.000", "R$ 1.150", "R$ 2.400", "R$ 200", "Área total", "125 m²", "Suítes", "Ano de construção", "2014", "Semimobiliado", "Aceita animais", "Aceita financiamento", "Aceita FGTS"]) {
      await expect(main, text).toContainText(text);
    }
    await expect(main).toContainText(/8º andar/);
    for (const name of ["Varanda gourmet", "Ar-condicionado", "Vista para o mar", "Piscina", "Academia", "Elevador", "Portaria 24h"]) {
      await expect(main.getByRole("listitem").filter({ hasText: new RegExp(`^${name}$`) }), name).toHaveCount(1);
    }
    await expect(main).not.toContainText("Aceita permuta");
    await page.screenshot({ path: `${SHOTS}/listing-page-390.png`, fullPage: true });
    await expectFitsWindow(page, "the property page at 390 px");

    // The JSON-LD carries the new fields; 'Exibir endereço' was left off (the form's default), so
    // neither the street, its number nor the position is anywhere in the page.
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!);
    const about = jsonLd.about ?? jsonLd;
    expect(JSON.stringify(about)).toContain("Varanda gourmet");
    expect(about).toMatchObject({ yearBuilt: 2014, petsAllowed: true, floorLevel: "8º andar" });
    expect(about.geo).toBeUndefined();
    const html = await (await page.request.get(`/imoveis/${id}`)).text();
    const data = await (await page.request.get(`/imoveis/${id}.data`)).text();
    for (const secret of ["Praia de Ponta Negra", "Apto 802", "5.8826", "35.1664", "59090"]) {
      expect(html, secret).not.toContain(secret);
      expect(data, secret).not.toContain(secret);
    }

    // Each filter keeps the listing while it fits and drops it when it does not.
    const listed = async (query: string) => (await (await page.request.get(`/imoveis?${query}`)).text()).includes(`/imoveis/${id}`);
    expect(await listed("bairro=Ponta%20Negra")).toBe(true);
    const fits = ["suites=1", "condominio_max=1200", "area_min=90&area_max=100", "carac=piscina&carac=varanda_gourmet", "financiamento=1", "vagas=2"];
    const fitsNot = ["suites=2", "condominio_max=1000", "area_min=100", "carac=sauna", "mobiliado=1", "vagas=3"];
    for (const query of fits) expect(await listed(`bairro=Ponta%20Negra&${query}`), query).toBe(true);
    for (const query of fitsNot) expect(await listed(`bairro=Ponta%20Negra&${query}`), query).toBe(false);
  });

  test("a save with a wrong value takes the broker to its section and field", async ({ page }) => {
    const dialog = await openNewListing(page);
    await dialog.getByLabel("Código").fill(`${code}-2`);
    await dialog.getByLabel("Título").fill("Apartamento com erro nas suítes");
    await dialog.getByLabel("Descrição").fill("Um apartamento cadastrado com mais suítes que quartos.");
    await dialog.getByLabel("Tipo").selectOption("apartamento");
    await dialog.getByLabel("Finalidade").selectOption("aluguel");
    await dialog.getByLabel("Preço (R$)").fill("");
    await dialog.getByLabel("Preço (R$)").pressSequentially("230000");
    await dialog.getByLabel("Bairro").fill("Lagoa Nova");
    await dialog.getByLabel("Quartos").fill("2");
    await dialog.getByLabel("Suítes").fill("3");
    // A rental: guarantees instead of financing.
    await expect(dialog.getByRole("group", { name: "Aceita financiamento" })).toHaveCount(0);
    await dialog.getByRole("group", { name: "Garantias aceitas" }).getByLabel("Seguro fiança").check();
    await sectionLink(dialog, "Portais").click();

    await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
    await expect(page.getByText("Suítes não podem ser mais que os quartos").first()).toBeVisible();
    await expect(dialog.getByLabel("Suítes")).toBeFocused();
    await expect(dialog.getByLabel("Suítes")).toBeInViewport();
    await expect(dialog.getByRole("heading", { name: "Novo Imóvel" })).toBeInViewport();
    await expect(sectionLink(dialog, /Características/)).toContainText("1 erro");
    await page.screenshot({ path: `${SHOTS}/listing-form-390-error.png` });

    await dialog.getByLabel("Suítes").fill("1");
    await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
    await expect(page.getByText("Imóvel cadastrado com sucesso!")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: `${code}-2`.toUpperCase() })).toContainText("R$ 2.300/mês");
  });
});

test.describe("the listing form at 360 and 1280 px", () => {
  test("nothing is cut off on a 360 px phone", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 640 });
    const dialog = await openNewListing(page);
    const box = (await dialog.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(360);
    for (const section of ["Básico", "Valores", "Características", "Condomínio", "Localização", "Mídia", "Portais"]) {
      const link = sectionLink(dialog, section);
      const linkBox = (await link.boundingBox())!;
      expect(linkBox.x, section).toBeGreaterThanOrEqual(0);
      expect(linkBox.x + linkBox.width, section).toBeLessThanOrEqual(360);
    }
    // Wider than the dialog? Every section's content must fit its width.
    const overflowing = await dialog.evaluate((element) =>
      [...element.querySelectorAll<HTMLElement>("label, input, select, textarea, button, p, legend")]
        .filter((node) => node.offsetParent !== null && node.getBoundingClientRect().right > element.getBoundingClientRect().right + 0.5)
        .map((node) => node.textContent || node.getAttribute("name") || node.tagName),
    );
    expect(overflowing).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/listing-form-360.png` });
  });

  test("the form and the list at 1280 px", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const dialog = await openNewListing(page);
    await page.screenshot({ path: `${SHOTS}/listing-form-1280.png` });
    await sectionLink(dialog, "Características").click();
    await page.screenshot({ path: `${SHOTS}/listing-form-1280-features.png` });
    await dialog.getByRole("button", { name: "Cancelar" }).click();
    // The table: cover thumbnails, 'Sob consulta', '/mês' and the completeness column.
    const table = page.locator("table");
    await expect(table.getByRole("columnheader", { name: "Status e anúncio" })).toBeVisible();
    await expect(table.getByRole("row").filter({ hasText: "AP-PN-101" })).toContainText("Anúncio 67%");
    await expect(table.getByRole("row").filter({ hasText: "TE-PA-514" })).toContainText("Sob consulta");
    await expect(table.getByRole("row").filter({ hasText: "AP-LN-303" })).toContainText("R$ 2.300/mês");
    await expect(table.getByRole("img", { name: /^Capa de / }).first()).toBeVisible();
    await expectFitsWindow(page, "the properties table at 1280 px");
    // The table itself fits: no column (the featured star) hides behind the sticky actions.
    const strip = await table.evaluate((element) => ({ scroll: element.parentElement!.scrollWidth, client: element.parentElement!.clientWidth }));
    expect(strip.scroll, "the table scrolls sideways at 1280 px").toBeLessThanOrEqual(strip.client);
    await page.screenshot({ path: `${SHOTS}/listing-list-1280.png` });
  });
});
