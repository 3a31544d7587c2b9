import { expect, type Page, test } from "@playwright/test";
import { answerForWhatsapp, dashboardCounter, signInAsAdmin, waitForHydration } from "./helpers";

/** Opens the first listed property and waits until its page is on screen. */
async function openFirstProperty(page: Page) {
  await page.getByRole("article").first().getByRole("link", { name: /Ver Detalhes/ }).click();
  await expect(page).toHaveURL(/\/imoveis\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("region", { name: /Fotos de/ })).toBeVisible();
}

/** Waits until every card on the list matches (the list follows the URL a moment later). */
async function expectEveryCard(page: Page, pattern: RegExp) {
  await expect
    .poll(async () => {
      const texts = await page.getByRole("article").allTextContents();
      return texts.length > 0 && texts.every((text) => pattern.test(text));
    })
    .toBe(true);
}

test.describe("public site", () => {
  test("home search leads to the filtered list with only the chosen values in the URL", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const search = page.getByRole("search", { name: "Buscar imóveis" });
    await search.getByLabel("Tipo de imóvel").selectOption("apartamento");
    await search.getByLabel("Bairro").fill("Ponta Negra");
    await search.getByRole("button", { name: "Buscar" }).click();
    await expect(page).toHaveURL(/\/imoveis\?tipo=apartamento&bairro=Ponta\+Negra$/);
    // The URL changes before the list's data arrives: the home's featured cards are still on
    // screen for a moment, so wait until every card is a Ponta Negra apartment.
    await expectEveryCard(page, /Apartamento[\s\S]*Ponta Negra/);
    // The list's panel starts from the URL.
    await expect(page.getByLabel("Tipo", { exact: true })).toHaveValue("apartamento");
    await expect(page.getByLabel("Bairro")).toHaveValue("Ponta Negra");
  });

  test("each filter narrows the list, 'Limpar' resets it, Back leaves the list", async ({ page }) => {
    await page.goto("/sobre");
    await page.goto("/imoveis");
    await waitForHydration(page);
    const count = page.getByText(/\d+ imóve(l|is) encontrado/);
    const total = Number((await count.textContent())!.split(" ")[0]);
    expect(total).toBeGreaterThanOrEqual(12);

    await page.getByLabel("Tipo", { exact: true }).selectOption("casa");
    await expect(page).toHaveURL(/tipo=casa/);
    await expectEveryCard(page, /Casa/);

    await page.getByLabel("Finalidade").selectOption("venda");
    await expect(page).toHaveURL(/tipo=casa&finalidade=venda/);
    await expectEveryCard(page, /Casa.*Venda/);

    await page.getByLabel("Tipo", { exact: true }).selectOption("all");
    await page.getByLabel("Finalidade").selectOption("all");
    await page.getByLabel("Bairro").fill("petropolis");
    await expect(page).toHaveURL(/bairro=petropolis/);
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(page.getByRole("article")).toContainText("Petrópolis");

    await page.getByLabel("Bairro").fill("");
    await expect(page).not.toHaveURL(/bairro=/);
    await page.getByLabel("Quartos", { exact: true }).selectOption("4+");
    await expect(page).toHaveURL(/quartos=4%2B/);
    await expectEveryCard(page, /([4-9]|\d{2}) quartos/);

    await page.getByLabel("Quartos", { exact: true }).selectOption("all");
    await page.getByLabel("Vagas", { exact: true }).selectOption("3");
    await expect(page).toHaveURL(/vagas=3/);
    await expectEveryCard(page, /[3-9] vagas/);

    // Price: the keyboard moves the maximum down from 'R$ 5.000.000+' one step at a time.
    await page.getByLabel("Vagas", { exact: true }).selectOption("all");
    await expect(page.getByText("R$ 0 – R$ 5.000.000+")).toBeVisible();
    const maximum = page.getByLabel("Preço máximo");
    await maximum.focus();
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowLeft");
    await expect(page).toHaveURL(/preco_max=4900000/);
    await expect(page.getByRole("article").filter({ hasText: "Cobertura duplex" })).toHaveCount(0);

    await page.getByRole("link", { name: "Limpar" }).click();
    await expect(page).toHaveURL(/\/imoveis$/);
    await expect(count).toHaveText(`${total} imóveis encontrados`);
    await expect(page.getByLabel("Preço máximo")).toHaveValue("5000000");

    // Filter changes replaced the history entry: one Back returns to where we came from.
    await page.goBack();
    await expect(page).toHaveURL(/\/sobre$/);
  });

  test("no match shows the empty state with a button that clears the filters", async ({ page }) => {
    await page.goto("/imoveis?bairro=lugar-que-nao-existe");
    await expect(page.getByRole("heading", { name: "Nenhum imóvel encontrado" })).toBeVisible();
    await expect(page.getByText("0 imóveis encontrados")).toBeVisible();
    await waitForHydration(page);
    await page.getByRole("link", { name: "Limpar filtros" }).click();
    await expect(page).toHaveURL(/\/imoveis$/);
    await expect(page.getByRole("article").first()).toBeVisible();
  });

  test("property page: gallery wraps around both ways, by button and by keyboard", async ({ page }) => {
    await page.goto("/imoveis");
    await openFirstProperty(page);
    await waitForHydration(page);
    const gallery = page.getByRole("region", { name: /Fotos de/ });
    const counter = gallery.getByText(/^\d+ \/ \d+$/);
    const total = Number((await counter.textContent())!.split("/")[1]);
    expect(total).toBeGreaterThanOrEqual(3);
    await expect(counter).toHaveText(`1 / ${total}`);
    await gallery.getByRole("button", { name: "Foto anterior" }).click();
    await expect(counter).toHaveText(`${total} / ${total}`);
    await gallery.getByRole("button", { name: "Próxima foto" }).click();
    await expect(counter).toHaveText(`1 / ${total}`);
    await gallery.focus();
    await page.keyboard.press("ArrowLeft");
    await expect(counter).toHaveText(`${total} / ${total}`);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect(counter).toHaveText(`2 / ${total}`);
    await gallery.getByRole("button", { name: "Ver foto 3" }).click();
    await expect(counter).toHaveText(`3 / ${total}`);
    // The main photo is the page's largest image: not lazy, with its size.
    const main = gallery.locator("img").first();
    await expect(main).toHaveAttribute("width", "1600");
    await expect(page.getByRole("link", { name: "Voltar para imóveis" })).toHaveAttribute("href", "/imoveis");
  });

  test("'Falar pelo WhatsApp' opens a prefilled, encoded chat in a new tab", async ({ page, context }) => {
    // The chat app's site is out of reach here: answer for it, so the new tab lands on its address.
    await answerForWhatsapp(context);
    await page.goto("/imoveis");
    await openFirstProperty(page);
    const title = (await page.getByRole("heading", { level: 1 }).textContent())!;
    const link = page.getByRole("link", { name: "Falar pelo WhatsApp" });
    await expect(link).toHaveAttribute("target", "_blank");
    // Through our redirect, which counts the tap (decision 028).
    await expect(link).toHaveAttribute("href", /^\/whatsapp\?pagina=imovel&imovel=/);
    const [chat] = await Promise.all([page.waitForEvent("popup"), link.click()]);
    await expect.poll(() => chat.url()).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
    const text = new URL(chat.url()).searchParams.get("text")!;
    expect(text).toContain(title);
    expect(text).toMatch(/R\$\s[\d.]+|Sob consulta/);
  });

  test("booking a visit: a bad phone is refused, a good one becomes a lead", async ({ page, context }) => {
    const admin = await context.browser()!.newPage();
    await signInAsAdmin(admin);
    const leadsBefore = await dashboardCounter(admin, "total-leads");

    await page.goto("/imoveis");
    await openFirstProperty(page);
    await waitForHydration(page);
    const title = (await page.getByRole("heading", { level: 1 }).textContent())!;
    await page.getByRole("link", { name: "Agendar Visita" }).click();
    const dialog = page.getByRole("dialog", { name: "Agendar Visita" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(title);
    await dialog.getByLabel("Nome completo").fill("Visitante de Teste");
    await dialog.getByLabel("Telefone (WhatsApp)").fill("1234");
    await dialog.getByRole("button", { name: "Agendar Visita" }).click();
    await expect(page.getByText("Telefone inválido")).toBeVisible();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Nome completo")).toHaveValue("Visitante de Teste");

    await dialog.getByLabel("Telefone (WhatsApp)").fill("84999991234");
    await expect(dialog.getByLabel("Telefone (WhatsApp)")).toHaveValue("(84) 99999-1234");
    await dialog.getByRole("button", { name: "Agendar Visita" }).click();
    await expect(page.getByText("Agendamento realizado com sucesso! Entraremos em contato em breve.")).toBeVisible();
    await expect(dialog).toBeHidden();

    expect(await dashboardCounter(admin, "total-leads")).toBe(leadsBefore + 1);
    await admin.close();
  });

  test("booking without JavaScript with a preferred day and period; the broker sees it where the visit is scheduled", async ({ browser, page }) => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    const name = `Visitante Sem Script ${Date.now()}`;
    // Three days from now in Natal (UTC−3).
    const day = new Date(Date.now() + 3 * 86_400_000 - 3 * 3_600_000).toISOString().slice(0, 10);
    await plain.goto("/agendar-visita");
    await plain.getByLabel("Nome completo").fill(name);
    await plain.getByLabel("Telefone (WhatsApp)").fill("(84) 99999-5678");
    await plain.getByLabel("1º dia", { exact: true }).fill(day);
    await plain.getByLabel("Período do 1º dia").selectOption("tarde");
    await plain.getByRole("button", { name: "Agendar Visita" }).click();
    await expect(plain.getByRole("status")).toHaveText("Agendamento realizado com sucesso! Entraremos em contato em breve.");
    await noScript.close();

    await signInAsAdmin(page);
    await page.goto("/crm/visitas");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Agendar visita" }).click();
    const dialog = page.getByRole("dialog", { name: "Agendar visita" });
    await dialog.getByLabel("Buscar lead (nome, telefone ou email)").fill(name);
    const option = dialog.getByLabel("Lead", { exact: true }).locator("option", { hasText: name });
    await expect(option).toHaveCount(1);
    await dialog.getByLabel("Lead", { exact: true }).selectOption((await option.getAttribute("value"))!);
    const [year, month, date] = day.split("-");
    await expect(dialog.getByTestId("visit-preferences")).toContainText("Dias preferidos pelo visitante");
    await expect(dialog.getByTestId("visit-preferences")).toContainText(`${date}/${month}/${year} — Tarde`);
  });

  test("contact: the message becomes a lead and the chat opens with its details", async ({ page, context }) => {
    // The chat app's site is out of reach here: answer for it, so the new tab lands on its address.
    await context.route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }));
    await page.goto("/contato");
    await waitForHydration(page);
    await page.getByLabel("Nome").fill("Cliente Contato");
    await page.getByLabel("Telefone (WhatsApp)").fill("84988887777");
    await page.getByLabel("Email").fill("cliente@exemplo.com");
    await page.getByLabel("Mensagem").fill("curto");
    await page.getByRole("button", { name: "Enviar Mensagem" }).click();
    await expect(page.getByText("Mensagem deve ter pelo menos 10 caracteres")).toBeVisible();

    await page.getByLabel("Mensagem").fill("Procuro apartamento de 3 quartos em Capim Macio.");
    const [chat] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: "Enviar Mensagem" }).click()]);
    await expect(page.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toBeVisible();
    await expect.poll(() => chat.url()).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
    const text = decodeURIComponent(new URL(chat.url()).searchParams.get("text")!);
    expect(text).toContain("Cliente Contato");
    expect(text).toContain("Procuro apartamento de 3 quartos em Capim Macio.");
    // The form is ready for another message.
    await expect(page.getByLabel("Nome")).toHaveValue("");
  });

  test("unknown and malformed property addresses answer 404 with a way back", async ({ page }) => {
    for (const id of ["00000000-0000-0000-0000-000000000000", "nao-e-um-id"]) {
      const response = await page.goto(`/imoveis/${id}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Imóvel não encontrado" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Ver imóveis disponíveis" })).toHaveAttribute("href", "/imoveis");
    }
  });

  test("a property page without JavaScript has its title, price and link-preview tags", async ({ request, browser }) => {
    const list = await (await request.get("/imoveis")).text();
    const path = /href="(\/imoveis\/[0-9a-f-]{36})"/.exec(list)![1];
    const html = await (await request.get(path, { headers: { "User-Agent": "WhatsApp/2.23.20.0" } })).text();
    const title = /<h1[^>]*>([^<]+)<\/h1>/.exec(html)![1];
    expect(html).toContain(`<meta property="og:title" content="${title}"/>`);
    expect(html).toMatch(/<meta property="og:description" content="(R\$|Sob consulta)[^"]+"/);
    expect(html).toMatch(/<meta property="og:url" content="http:\/\/localhost:3210\/imoveis\/[0-9a-f-]{36}"/);
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/localhost:3210\/imoveis\//);
    expect(html).toContain('"@type":"RealEstateListing"');
    expect(html).toContain('"priceCurrency":"BRL"');
    expect(html).toMatch(/Valor do (Imóvel|Aluguel)/);
    const image = /<meta property="og:image" content="([^"]+)"/.exec(html)![1];
    expect(image).toMatch(/^http:\/\/localhost:3210\/media\/[0-9a-f-]+\/og\.jpg$/);
    const preview = await request.get(image.replace("http://localhost:3210", ""));
    expect(preview.headers()["content-type"]).toBe("image/jpeg");
    expect((await preview.body()).length).toBeLessThan(300 * 1024);

    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.getByText(/Valor do (Imóvel|Aluguel)/)).toBeVisible();
    await noScript.close();
  });

  test("broker_partner never reaches the browser, in HTML or in data requests", async ({ page, request }) => {
    const partner = "Imobiliária Parceira Exemplo"; // seeded on a demo listing
    const seen: string[] = [];
    page.on("response", async (response) => {
      if (response.url().includes("localhost:3210") && /text|json|x-script|turbo/.test(response.headers()["content-type"] ?? "")) {
        seen.push(await response.text().catch(() => ""));
      }
    });
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Imóveis", exact: true }).click();
    await page.getByRole("article").first().getByRole("link", { name: /Ver Detalhes/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(seen.some((body) => body.includes("Agendar Visita") || body.includes("imoveis"))).toBe(true);
    for (const body of seen) {
      expect(body).not.toContain(partner);
      expect(body).not.toContain("broker_partner");
    }
    for (const path of ["/", "/imoveis", "/imoveis.data", "/_root.data"]) {
      const body = await (await request.get(path)).text();
      expect(body).not.toContain(partner);
    }
  });

  test("slow answers show 'Carregando imóveis...' and, after 300 ms, 'Aplicando filtros...'", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    // A slow connection: hold the list's data for a second.
    await page.route("**/imoveis.data*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Principal" }).getByRole("link", { name: "Imóveis", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Carregando imóveis..." })).toBeVisible();
    await expect(page).toHaveURL(/\/imoveis$/);
    await expect(page.getByText("Carregando imóveis...")).toHaveCount(0);

    await page.getByLabel("Tipo", { exact: true }).selectOption("terreno");
    await expect(page.getByRole("status").filter({ hasText: "Aplicando filtros..." })).toBeVisible();
    await expect(page.getByText("Aplicando filtros...")).toHaveCount(0, { timeout: 5000 });
    await expectEveryCard(page, /Terreno/);
  });

  test("the first photos load at once with their size; the ones further down wait", async ({ page }) => {
    await page.goto("/imoveis");
    const covers = page.getByRole("article").locator("img");
    await expect(covers.first()).toHaveAttribute("loading", "eager");
    await expect(covers.first()).toHaveAttribute("width", "800");
    await expect(covers.first()).toHaveAttribute("height", "600");
    await expect(covers.nth(5)).toHaveAttribute("loading", "lazy");
  });

  test("no entrance animation for people who ask for reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/imoveis");
    const duration = await page.locator(".animate-fade-up").first().evaluate((element) => getComputedStyle(element).animationDuration);
    expect(parseFloat(duration)).toBeLessThan(0.001);
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto("/imoveis");
    const normal = await page.locator(".animate-fade-up").nth(1).evaluate((element) => getComputedStyle(element));
    expect(parseFloat(normal.animationDuration)).toBeGreaterThan(0.1);
    expect(normal.animationDelay).toBe("0.08s");
  });

  test("sitemap and robots", async ({ request }) => {
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.headers()["content-type"]).toContain("application/xml");
    const xml = await sitemap.text();
    expect(xml).toContain("<loc>http://localhost:3210/sobre</loc>");
    expect((xml.match(/\/imoveis\/[0-9a-f-]{36}/g) ?? []).length).toBeGreaterThanOrEqual(10);
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toContain("Disallow: /crm");
    expect(robots).toContain("Disallow: /auth");
  });
});
