import { expect, type Page, test } from "@playwright/test";
import { signInAsAdmin, waitForHydration } from "./helpers";

test.describe.configure({ mode: "serial" });

/** The page's live stream is open (it opens only after load and idle). */
async function waitForLiveStream(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-live", "open", { timeout: 15_000 });
}

/** Marks the document so that a reload (which would lose the mark) can be detected. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}
async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
}

async function setFeatured(admin: Page, code: string, featured: boolean) {
  const row = admin.locator("table tbody tr", { hasText: code });
  const star = row.getByRole("button", { name: new RegExp(`(Destacar|Remover destaque de) ${code}`) });
  if ((await star.getAttribute("aria-pressed")) !== String(featured)) {
    await star.click();
    await expect(star).toHaveAttribute("aria-pressed", String(featured));
  }
}

test.describe("live updates", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("a property made featured in the CRM appears on an open home page, without a reload", async ({ page, browser }) => {
    await page.goto("/");
    await waitForHydration(page);
    await waitForLiveStream(page);
    await markDocument(page);
    const featured = page.getByRole("region", { name: "Imóveis em Destaque" });
    await expect(featured.getByRole("article")).toHaveCount(3);

    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await adminContext.newPage();
    await signInAsAdmin(admin);
    await admin.goto("/crm/imoveis");
    await waitForHydration(admin);

    // Make room among the three newest featured, then feature an older listing.
    await setFeatured(admin, "AP-PN-101", false);
    await setFeatured(admin, "TE-CO-505", true);
    await expect(featured.getByRole("article").filter({ hasText: "Terreno de 450 m² em Cotovelo" })).toBeVisible();
    await expect(featured.getByRole("article").filter({ hasText: "Morro do Careca" })).toHaveCount(0);
    await expectSameDocument(page);

    // Put things back for the other tests.
    await setFeatured(admin, "TE-CO-505", false);
    await setFeatured(admin, "AP-PN-101", true);
    await expect(featured.getByRole("article").filter({ hasText: "Morro do Careca" })).toBeVisible();
    await adminContext.close();
  });

  test("a new property appears on an open filtered list only if it matches the filters", async ({ page, browser }) => {
    await page.goto("/imoveis?tipo=terreno");
    await waitForHydration(page);
    await waitForLiveStream(page);
    await markDocument(page);
    const count = page.getByText(/\d+ imóve(l|is) encontrado/);
    const before = Number((await count.textContent())!.split(" ")[0]);

    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await adminContext.newPage();
    await signInAsAdmin(admin);
    await admin.goto("/crm/imoveis");
    await waitForHydration(admin);

    const create = async (type: "casa" | "terreno", title: string) => {
      await admin.getByRole("button", { name: "Novo Imóvel" }).click();
      const dialog = admin.getByRole("dialog", { name: "Novo Imóvel" });
      await dialog.getByLabel("Código").fill(`LIVE-${type}-${Date.now().toString(36)}`);
      await dialog.getByLabel("Título").fill(title);
      await dialog.getByLabel("Descrição").fill("Criado para testar a atualização ao vivo.");
      await dialog.getByLabel("Tipo").selectOption(type);
      await dialog.getByLabel("Finalidade").selectOption("venda");
      await dialog.getByLabel("Bairro").fill("Pitimbu");
      await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
      await expect(admin.getByText("Imóvel cadastrado com sucesso!").last()).toBeVisible();
    };

    // A house does not match tipo=terreno: the open list reloads its data but shows the same.
    const reloaded = page.waitForResponse((response) => response.url().includes("/imoveis.data"));
    await create("casa", "Casa ao vivo que não é terreno");
    await reloaded;
    await expect(count).toHaveText(`${before} ${before === 1 ? "imóvel encontrado" : "imóveis encontrados"}`);
    await expect(page.getByRole("article").filter({ hasText: "Casa ao vivo" })).toHaveCount(0);

    // A plot does.
    await create("terreno", "Terreno ao vivo em Pitimbu");
    await expect(page.getByRole("article").filter({ hasText: "Terreno ao vivo em Pitimbu" })).toBeVisible();
    await expect(count).toHaveText(`${before + 1} imóveis encontrados`);
    await expect(page).toHaveURL(/\?tipo=terreno$/);
    await expectSameDocument(page);
    await adminContext.close();
  });

  test("a message from the contact form raises the open dashboard's counters and appears in the open leads table", async ({ page, browser }) => {
    await signInAsAdmin(page);
    await page.goto("/crm");
    await waitForHydration(page);
    await waitForLiveStream(page);
    await markDocument(page);
    const totalLeads = page.getByTestId("total-leads").locator("[data-value]");
    const newThisMonth = page.getByTestId("new-leads-month").locator("[data-value]");
    const [leadsBefore, monthBefore] = [Number(await totalLeads.textContent()), Number(await newThisMonth.textContent())];

    const leadsPage = await page.context().newPage();
    await leadsPage.goto("/crm/leads");
    await waitForHydration(leadsPage);
    await waitForLiveStream(leadsPage);
    await markDocument(leadsPage);
    // The broker is typing a new lead when the message arrives: nothing they typed may be lost.
    await leadsPage.getByRole("button", { name: "Novo Lead" }).click();
    const dialog = leadsPage.getByRole("dialog", { name: "Novo Lead" });
    await dialog.getByLabel("Nome completo").fill("Digitando com calma");
    await dialog.getByLabel("Notas (opcional)").fill("Anotação em andamento");

    const visitorContext = await browser.newContext();
    await visitorContext.route("https://wa.me/**", (route) => route.fulfill({ body: "ok" }));
    const visitor = await visitorContext.newPage();
    await visitor.goto("/contato");
    await waitForHydration(visitor);
    const name = `Contato Ao Vivo ${Date.now().toString(36)}`;
    await visitor.getByLabel("Nome").fill(name);
    await visitor.getByLabel("Telefone (WhatsApp)").fill("84955554444");
    await visitor.getByLabel("Email").fill("aovivo@exemplo.com");
    await visitor.getByLabel("Mensagem").fill("Quero saber mais sobre os imóveis de Ponta Negra.");
    await visitor.getByRole("button", { name: "Enviar Mensagem" }).click();
    await expect(visitor.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toBeVisible();

    await expect(totalLeads).toHaveText(String(leadsBefore + 1));
    await expect(newThisMonth).toHaveText(String(monthBefore + 1));
    await expect(page.getByRole("link", { name: /Leads/ }).first()).toContainText(/\d/);
    await expectSameDocument(page);

    await expect(leadsPage.locator("table tbody tr", { hasText: name })).toBeVisible();
    await expect(dialog.getByLabel("Nome completo")).toHaveValue("Digitando com calma");
    await expect(dialog.getByLabel("Notas (opcional)")).toHaveValue("Anotação em andamento");
    await expectSameDocument(leadsPage);
    await visitorContext.close();
  });

  test("a visitor's stream never carries lead data; a staff stream hears about leads", async ({ page, browser }) => {
    // What the visitor's browser receives on /api/events while a lead is created and a property changes.
    // Each reader stops as soon as the event it waits for arrives; the 30 s bound only matters on a
    // machine too busy to run the admin's steps quickly.
    await page.goto("/");
    const visitorStream = page.evaluate(async () => {
      const response = await fetch("/api/events");
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const started = Date.now();
      while (Date.now() - started < 30_000 && !text.includes('"table":"properties"')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
      await reader.cancel();
      return text;
    });

    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await adminContext.newPage();
    await signInAsAdmin(admin);
    // Read the staff stream from another tab of the same signed-in browser.
    const staffReader = await adminContext.newPage();
    await staffReader.goto("/");
    const staffStream = staffReader.evaluate(async () => {
      const response = await fetch("/api/events");
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const started = Date.now();
      while (Date.now() - started < 30_000 && !text.includes('"table":"leads"')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
      await reader.cancel();
      return text;
    });
    await page.waitForTimeout(500);

    await admin.goto("/crm/leads");
    await waitForHydration(admin);
    await admin.getByRole("button", { name: "Novo Lead" }).click();
    const dialog = admin.getByRole("dialog", { name: "Novo Lead" });
    await dialog.getByLabel("Nome completo").fill("Lead Confidencial");
    await dialog.getByLabel("Telefone").fill("84944443333");
    await dialog.getByRole("button", { name: "Cadastrar Lead" }).click();
    await expect(admin.getByText("Lead cadastrado com sucesso!")).toBeVisible();
    // Then a property change, which ends the visitor's reading.
    await admin.goto("/crm/imoveis");
    await waitForHydration(admin);
    await setFeatured(admin, "AP-PN-101", false);
    await setFeatured(admin, "AP-PN-101", true);

    const visitorText = await visitorStream;
    expect(visitorText).toContain('"staff":false');
    expect(visitorText).toContain('"table":"properties"');
    expect(visitorText).not.toContain("leads");
    expect(visitorText).not.toContain("Confidencial");
    const staffText = await staffStream;
    expect(staffText).toContain('"table":"leads"');
    expect(staffText).not.toContain("Confidencial");
    await adminContext.close();
  });
});
