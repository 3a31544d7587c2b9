import { expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { dashboardCounter, signInAsAdmin, waitForHydration } from "./helpers";

test.describe.configure({ mode: "serial" });

async function jpeg(color: string, name: string) {
  const buffer = await sharp({ create: { width: 1200, height: 900, channels: 3, background: color } }).jpeg().toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

/** The CRM's leads table rows (wide screen). */
const leadRows = (page: Page) => page.locator("table tbody tr");

test.describe("the CRM", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("a visitor who signs up is asked to confirm the e-mail, and is not signed in meanwhile", async ({ page }) => {
    await page.goto("/auth");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Criar conta" }).click();
    await expect(page.getByRole("heading", { name: "Criar Conta" })).toBeVisible();
    await page.getByLabel("Nome completo").fill("Visitante Curioso");
    const email = `curioso-${Date.now()}@exemplo.com`;
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Senha").fill("1234567");
    await page.getByRole("button", { name: "Criar Conta" }).click();
    await expect(page.getByText("Senha deve ter pelo menos 8 caracteres")).toBeVisible();
    await page.getByLabel("Senha").fill("senha-boa-1");
    await page.getByRole("button", { name: "Criar Conta" }).click();
    await expect(page.getByText("Conta criada com sucesso!").first()).toBeVisible();
    await expect(page.getByText(`Enviamos um link de confirmação para ${email}`)).toBeVisible();
    await page.goto("/crm");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("a wrong password gets a Portuguese message, never the library's English", async ({ page }) => {
    await page.goto("/auth");
    await waitForHydration(page);
    await page.getByLabel("Email").fill("ninguem@exemplo.com");
    await page.getByLabel("Senha").fill("senha-errada");
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page.getByText("Email ou senha inválidos")).toBeVisible();
    await expect(page.getByText(/invalid/i)).toHaveCount(0);
  });

  test("the dashboard's counters equal what the tables hold", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/crm/imoveis");
    const propertyCount = await page.locator("table tbody tr").count();
    await page.goto("/crm/leads");
    const leadCount = (await page.getByText("Nenhum lead cadastrado").count()) ? 0 : await leadRows(page).count();
    await page.goto("/crm/leads?status=convertido");
    const convertedCount = (await page.getByText("Nenhum lead cadastrado").count()) ? 0 : await leadRows(page).count();
    expect(await dashboardCounter(page, "total-properties")).toBe(propertyCount);
    expect(await dashboardCounter(page, "total-leads")).toBe(leadCount);
    expect(await dashboardCounter(page, "converted-leads")).toBe(convertedCount);
    // Every lead in this fresh data folder was made this month.
    expect(await dashboardCounter(page, "new-leads-month")).toBe(leadCount);
  });

  test("create a property with a lowercase code, a masked price and two photos; see it on the site; edit; delete", async ({ page, context }) => {
    await signInAsAdmin(page);
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Novo Imóvel" }).click();
    const dialog = page.getByRole("dialog", { name: "Novo Imóvel" });
    await expect(dialog).toBeVisible();

    // Saving an empty form names the first problem.
    await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
    await expect(page.getByText("Código é obrigatório").first()).toBeVisible();

    const code = `e2e-${Date.now().toString(36)}`;
    await dialog.getByLabel("Código").pressSequentially(code);
    await expect(dialog.getByLabel("Código")).toHaveValue(code.toUpperCase());
    await dialog.getByLabel("Título").fill("Casa de teste com quintal");
    await dialog.getByLabel("Descrição").fill("Casa criada pelo teste de navegador, com quintal e varanda.");
    await dialog.getByLabel("Tipo").selectOption("casa");
    await dialog.getByLabel("Finalidade").selectOption("venda");
    const price = dialog.getByLabel("Preço (R$)");
    await price.fill("");
    await price.pressSequentially("45000000");
    await expect(price).toHaveValue("450.000,00");
    await dialog.getByLabel("Quartos").fill("3");
    await dialog.getByLabel("Bairro").fill("Candelária");
    await expect(dialog.getByLabel("Cidade")).toHaveValue("Natal");
    await expect(dialog.getByLabel("Estado")).toHaveValue("RN");
    // The portals (issue 13): on by default; the address shown only when asked, the CEP formatted as typed.
    await expect(dialog.getByLabel("Publicar nos portais")).toBeChecked();
    await dialog.getByLabel("Endereço", { exact: true }).fill("Rua Seridó, 500");
    await dialog.getByLabel("CEP", { exact: true }).pressSequentially("59020010");
    await expect(dialog.getByLabel("CEP", { exact: true })).toHaveValue("59020-010");
    await dialog.getByLabel("Exibir endereço no site e nos portais").check();

    await dialog.locator('input[type="file"]').setInputFiles([await jpeg("#aa5533", "frente.jpg"), await jpeg("#3355aa", "sala.jpg")]);
    const photos = dialog.getByRole("list", { name: /Fotos do imóvel/ }).getByRole("listitem");
    await expect(photos).toHaveCount(2, { timeout: 30_000 });
    await expect(photos.first()).toContainText("Capa");
    // The second photo becomes the cover.
    await dialog.getByRole("button", { name: "Mover foto 2 para antes" }).click();
    const coverSrc = await photos.first().locator("img").getAttribute("src");

    await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
    await expect(page.getByText("Imóvel cadastrado com sucesso!")).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = page.locator("table tbody tr", { hasText: code.toUpperCase() });
    await expect(row).toContainText("R$ 450.000");
    await expect(row).not.toContainText("Fora dos portais");

    // On the public list, with the chosen cover.
    const visitor = await context.browser()!.newPage();
    await visitor.goto("/imoveis?bairro=candelaria");
    const card = visitor.getByRole("article").filter({ hasText: "Casa de teste com quintal" });
    await expect(card).toBeVisible();
    const cardImage = await card.locator("img").getAttribute("src");
    expect(cardImage).toBe(coverSrc!.replace("/400.webp", "/800.webp"));
    expect((await visitor.request.get(cardImage!)).status()).toBe(200);
    // The portals' JPEG of the same photo.
    const portalPhoto = await visitor.request.get(cardImage!.replace("/800.webp", "/1600.jpg"));
    expect([portalPhoto.status(), portalPhoto.headers()["content-type"]]).toEqual([200, "image/jpeg"]);
    // The property page shows the address the broker chose to show.
    await card.getByRole("link").first().click();
    await expect(visitor.getByText("Rua Seridó, 500 · CEP 59020-010")).toBeVisible();

    // Edit.
    await row.getByRole("button", { name: `Editar ${code.toUpperCase()}` }).click();
    const editDialog = page.getByRole("dialog", { name: "Editar Imóvel" });
    await editDialog.getByLabel("Título").fill("Casa de teste reformada");
    await expect(editDialog.getByLabel("CEP", { exact: true })).toHaveValue("59020-010");
    await editDialog.getByLabel("Publicar nos portais").uncheck();
    await editDialog.getByRole("button", { name: "Salvar Alterações" }).click();
    await expect(page.getByText("Imóvel atualizado com sucesso!")).toBeVisible();
    await expect(row).toContainText("Casa de teste reformada");
    await expect(row).toContainText("Fora dos portais: Desativado para portais");

    // Delete, after the confirmation.
    await row.getByRole("button", { name: `Excluir ${code.toUpperCase()}` }).click();
    const confirm = page.getByRole("alertdialog", { name: "Tem certeza que deseja excluir este imóvel?" });
    await confirm.getByRole("button", { name: "Excluir" }).click();
    await expect(page.getByText("Imóvel excluído com sucesso!")).toBeVisible();
    await expect(page.locator("table tbody tr", { hasText: code.toUpperCase() })).toHaveCount(0);
    // Its photos went with it, the portals' JPEG too.
    expect((await visitor.request.get(cardImage!)).status()).toBe(404);
    expect((await visitor.request.get(cardImage!.replace("/800.webp", "/1600.jpg"))).status()).toBe(404);
    await visitor.close();
  });

  test("a photo that is not an image is refused with the reason, and nothing is added", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Novo Imóvel" }).click();
    const dialog = page.getByRole("dialog", { name: "Novo Imóvel" });
    await dialog.locator('input[type="file"]').setInputFiles({ name: "falsa.jpg", mimeType: "image/jpeg", buffer: Buffer.from("isto não é uma foto") });
    await expect(page.getByText("Erro ao fazer upload das imagens: formato não suportado (use JPG, PNG ou WebP)")).toBeVisible();
    await expect(dialog.getByRole("list", { name: /Fotos do imóvel/ })).toHaveCount(0);
  });

  test("a lead set to convertido moves the converted counter", async ({ page }) => {
    await signInAsAdmin(page);
    const before = await dashboardCounter(page, "converted-leads");
    await page.goto("/crm/leads");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Novo Lead" }).click();
    const dialog = page.getByRole("dialog", { name: "Novo Lead" });
    const name = `Lead E2E ${Date.now().toString(36)}`;
    await dialog.getByLabel("Nome completo").fill(name);
    await dialog.getByLabel("Telefone").fill("84977776666");
    await dialog.getByLabel("Tipo de imóvel (opcional)").selectOption("ponto_comercial");
    await dialog.getByRole("button", { name: "Cadastrar Lead" }).click();
    await expect(page.getByText("Lead cadastrado com sucesso!")).toBeVisible();
    const row = leadRows(page).filter({ hasText: name });
    await expect(row).toContainText("Novo");
    await expect(row.getByRole("link", { name: "(84) 97777-6666" })).toHaveAttribute("href", "tel:+5584977776666");

    await row.getByRole("button", { name: `Editar lead de ${name}` }).click();
    const edit = page.getByRole("dialog", { name: "Editar Lead" });
    await edit.getByLabel("Status").selectOption("convertido");
    await edit.getByRole("button", { name: "Salvar Alterações" }).click();
    await expect(page.getByText("Lead atualizado com sucesso!")).toBeVisible();
    await expect(row).toContainText("Convertido");
    expect(await dashboardCounter(page, "converted-leads")).toBe(before + 1);
  });

  test("a visit booked on the site is a novo / site / comprar lead linked to its property", async ({ page, context }) => {
    const visitor = await context.browser()!.newPage();
    await visitor.goto("/imoveis");
    await visitor.getByRole("article").first().getByRole("link", { name: /Ver Detalhes/ }).click();
    await expect(visitor).toHaveURL(/\/imoveis\/[0-9a-f-]{36}$/);
    await expect(visitor.getByRole("region", { name: /Fotos de/ })).toBeVisible();
    await waitForHydration(visitor);
    const code = (await visitor.getByText(/^Código /).textContent())!.replace("Código ", "");
    await visitor.getByRole("link", { name: "Agendar Visita" }).click();
    const dialog = visitor.getByRole("dialog", { name: "Agendar Visita" });
    const name = `Visitante ${Date.now().toString(36)}`;
    await dialog.getByLabel("Nome completo").fill(name);
    await dialog.getByLabel("Telefone (WhatsApp)").fill("84966665555");
    await dialog.getByRole("button", { name: "Agendar Visita" }).click();
    await expect(visitor.getByText("Agendamento realizado com sucesso! Entraremos em contato em breve.")).toBeVisible();
    await visitor.close();

    await signInAsAdmin(page);
    await page.goto("/crm/leads");
    const row = leadRows(page).filter({ hasText: name });
    await expect(row).toContainText("Novo");
    await expect(row).toContainText("Site");
    await expect(row).toContainText("Comprar");
    await expect(row.getByRole("link", { name: `Visita: ${code}` })).toBeVisible();
  });

  test("'Sair' signs out and the CRM asks for a sign-in again", async ({ page }) => {
    await signInAsAdmin(page);
    await page.getByRole("button", { name: "Sair" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/crm/leads");
    await expect(page).toHaveURL(/\/auth\?next=%2Fcrm%2Fleads$/);
  });
});

test.describe("the CRM on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the sidebar folds into a menu with the new-lead count, and tables become cards", async ({ page }) => {
    await signInAsAdmin(page);
    await waitForHydration(page);
    await expect(page.getByRole("navigation", { name: "Menu do CRM" })).toBeHidden();
    await page.getByRole("button", { name: "Abrir menu" }).click();
    const menu = page.getByRole("navigation", { name: "Menu do CRM" });
    await expect(menu.getByRole("link", { name: /Leads/ })).toBeVisible();
    await menu.getByRole("link", { name: "Imóveis" }).click();
    await expect(page).toHaveURL(/\/crm\/imoveis$/);
    await expect(menu).toBeHidden();
    await expect(page.locator("table")).toBeHidden();
    await expect(page.getByRole("button", { name: /^Editar / }).first()).toBeVisible();
  });
});
