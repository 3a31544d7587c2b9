import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { waitForHydration } from "./helpers";

/**
 * What visitors expect of a property site (issue 13): find a listing by its code, keep
 * favourites without an account (across a reload, on /favoritos), share a listing, and see
 * similar ones. The default server and the demo listings; favourites live in each test's own
 * browser context, so tests never see each other's.
 */

const UUID_PATH = /\/imoveis\/[0-9a-f-]{36}$/;

async function expectEveryCard(page: Page, pattern: RegExp) {
  await expect
    .poll(async () => {
      const texts = await page.getByRole("main").getByRole("article").allTextContents();
      return texts.length > 0 && texts.every((text) => pattern.test(text));
    })
    .toBe(true);
}

async function openByCode(page: Page, code: string) {
  await page.goto(`/imoveis?codigo=${code}`);
  await expect(page).toHaveURL(UUID_PATH);
  await waitForHydration(page);
}

test.describe("search by code", () => {
  test("an exact code opens its page; part of one filters the list; an unknown one says so", async ({ page }) => {
    await page.goto("/sobre");
    await page.goto("/imoveis");
    await waitForHydration(page);
    const panel = page.getByRole("search", { name: "Filtrar imóveis" });

    // Typing alone does not search (an exact code must not open halfway through another one).
    await panel.getByLabel("Código", { exact: true }).fill("ap-pn-101");
    await page.waitForTimeout(500);
    await expect(page).toHaveURL(/\/imoveis$/);
    await panel.getByLabel("Código", { exact: true }).press("Enter");
    await expect(page).toHaveURL(UUID_PATH);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apartamento com vista para o Morro do Careca");
    await expect(page.getByText("Código AP-PN-101")).toBeVisible();
    // Back returns to the list the search started from.
    await page.goBack();
    await expect(page).toHaveURL(/\/imoveis$/);

    await waitForHydration(page);
    await panel.getByLabel("Código", { exact: true }).fill("AP-PN");
    await panel.getByRole("button", { name: "Buscar pelo código" }).click();
    await expect(page).toHaveURL(/\/imoveis\?codigo=AP-PN$/);
    await expectEveryCard(page, /Apartamento/);
    await expect(page.getByRole("main").getByRole("article").filter({ hasText: "Morro do Careca" })).toHaveCount(1);
    await expect(page.getByRole("main").getByRole("article").filter({ hasText: "Cobertura duplex" })).toHaveCount(1);
    await expect(page.getByText(/^\d+ imóve(l|is) encontrados?$/)).toHaveText(/^[12] imóve/);

    await panel.getByLabel("Código", { exact: true }).fill("ZZ-999");
    await panel.getByLabel("Código", { exact: true }).press("Enter");
    await expect(page.getByRole("heading", { name: "Nenhum imóvel encontrado" })).toBeVisible();
    await expect(page.getByText("Nenhum código de imóvel contém “ZZ-999”.", { exact: false })).toBeVisible();
  });

  test("the navbar's code search works from any page, and the plain request is a 302 the cache never keeps", async ({ page }) => {
    await page.goto("/sobre");
    await waitForHydration(page);
    const search = page.getByRole("search", { name: "Buscar pelo código do imóvel" });
    await search.getByLabel("Código", { exact: true }).fill("te-co-505");
    await search.getByRole("button", { name: "Buscar" }).click();
    await expect(page).toHaveURL(UUID_PATH);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terreno de 450 m² em Cotovelo");
    const target = new URL(page.url()).pathname;

    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await page.request.get("/imoveis?codigo=TE-CO-505", { maxRedirects: 0 });
      expect(response.status()).toBe(302);
      expect(response.headers()["location"]).toBe(target);
      expect(response.headers()["x-cache"]).toBe("BYPASS");
    }
    // Part of a code: a list, cached under its code like any filter.
    const partial = await page.request.get("/imoveis?codigo=TE-");
    expect(partial.status()).toBe(200);
    expect(await partial.text()).toContain("Terreno de 450 m² em Cotovelo");
    const again = await page.request.get("/imoveis?codigo=TE-");
    expect(again.headers()["x-cache"]).toBe("HIT");
    expect(await (await page.request.get("/imoveis?codigo=XX-")).text()).toContain("Nenhum imóvel encontrado");
  });

  test("on a phone the code search is in the menu", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Abrir menu" }).click();
    const search = page.getByRole("search", { name: "Buscar pelo código do imóvel" });
    await search.getByLabel("Código", { exact: true }).fill("CA-NP-404");
    await search.getByLabel("Código", { exact: true }).press("Enter");
    await expect(page).toHaveURL(UUID_PATH);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Casa em condomínio fechado em Nova Parnamirim");
  });
});

test.describe("favourites without an account", () => {
  test("a heart on cards and on the page, with the keyboard, kept across a reload, listed and dropped on /favoritos", async ({ page }) => {
    // The server renders every heart unpressed; a browser with favourites must hydrate without a mismatch.
    const errors: string[] = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto("/imoveis");
    await waitForHydration(page);
    const card = page.getByRole("main").getByRole("article").first();
    const cardTitle = (await card.getByRole("heading").textContent())!.trim();
    const heart = card.getByRole("button", { name: `Favoritar ${cardTitle}` });
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await expect(heart).toHaveAttribute("title", "Adicionar aos favoritos");

    // Keyboard: focus it (the ring shows), press Space.
    await heart.focus();
    expect(await heart.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe("solid");
    await page.keyboard.press("Space");
    await expect(heart).toHaveAttribute("aria-pressed", "true");
    await expect(heart).toHaveAttribute("title", "Remover dos favoritos");
    await expect(page.getByRole("link", { name: /^Favoritos\s*\(1 salvo\)$/ })).toBeVisible();

    // A second one, from its page (Enter this time).
    await openByCode(page, "CA-NP-404");
    const pageHeart = page.getByRole("button", { name: "Favoritar", exact: true });
    await expect(pageHeart).toHaveAttribute("aria-pressed", "false");
    await pageHeart.focus();
    await page.keyboard.press("Enter");
    await expect(pageHeart).toHaveAttribute("aria-pressed", "true");
    const secondTitle = "Casa em condomínio fechado em Nova Parnamirim";

    // After a reload the page hydrates unpressed (as the server sent it), then shows the browser's state.
    await page.reload();
    await waitForHydration(page);
    await expect(pageHeart).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("link", { name: /^Favoritos\s*\(2 salvos\)$/ })).toBeVisible();

    await page.getByRole("link", { name: /^Favoritos/ }).click();
    await expect(page).toHaveURL(/\/favoritos$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Meus favoritos");
    const cards = page.getByRole("main").getByRole("article");
    // Newest first.
    await expect(cards.getByRole("heading")).toHaveText([secondTitle, cardTitle]);
    await expect(page.getByRole("status").filter({ hasText: "2 imóveis salvos" })).toBeAttached();
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);

    // Removing one here keeps its card (unpressed) until the next visit; then it is gone.
    const removed = cards.filter({ hasText: cardTitle }).getByRole("button", { name: `Favoritar ${cardTitle}` });
    await removed.click();
    await expect(removed).toHaveAttribute("aria-pressed", "false");
    await expect(removed).toBeFocused();
    await page.reload();
    await expect(cards.getByRole("heading")).toHaveText([secondTitle]);

    // The last one removed from its page: /favoritos is empty and says so.
    await openByCode(page, "CA-NP-404");
    await page.getByRole("button", { name: "Favoritar", exact: true }).click();
    await page.goto("/favoritos");
    await expect(page.getByRole("heading", { name: "Nenhum imóvel favorito ainda" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Ver imóveis" })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test("listings no longer on the site leave /favoritos and the browser's list", async ({ page }) => {
    await openByCode(page, "TE-CO-505");
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const gone = "00000000-0000-4000-8000-000000000001";
    await page.evaluate(([real, missing]) => localStorage.setItem("favoritos", JSON.stringify([missing, real, "lixo"])), [id, gone]);
    await page.goto("/favoritos");
    await expect(page.getByRole("main").getByRole("article").getByRole("heading")).toHaveText(["Terreno de 450 m² em Cotovelo"]);
    await expect.poll(() => page.evaluate(() => localStorage.getItem("favoritos"))).toBe(JSON.stringify([id]));
    // The loader refuses what is not a list of ids, without an error page.
    expect((await page.request.get("/favoritos?ids=1,2,3")).status()).toBe(400);
  });
});

test.describe("share and similar listings", () => {
  test("without a share sheet the link is copied and 'Link copiado' is announced; WhatsApp opens a chat picker", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    // A desktop browser without the Web Share API.
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true }));
    await openByCode(page, "TE-CO-505");
    const url = page.url();
    await page.getByRole("button", { name: "Compartilhar", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "Link copiado" })).toHaveAttribute("aria-live", "polite");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    const whatsapp = page.getByRole("link", { name: "Compartilhar no WhatsApp" });
    await expect(whatsapp).toHaveAttribute("href", `https://wa.me/?text=${encodeURIComponent(`Terreno de 450 m² em Cotovelo\n${url}`)}`);
    await expect(whatsapp).toHaveAttribute("target", "_blank");
    await expect(whatsapp).toHaveAttribute("rel", /noopener/);
  });

  test("with a share sheet (phones) it is used instead, with the title and the address", async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "share", {
        configurable: true,
        value: async (data: ShareData) => {
          (window as unknown as { shared: ShareData }).shared = data;
        },
      });
    });
    await openByCode(page, "TE-CO-505");
    await page.getByRole("button", { name: "Compartilhar", exact: true }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData }).shared?.url)).toBe(page.url());
    const shared = await page.evaluate(() => (window as unknown as { shared: ShareData }).shared);
    expect(shared.title).toBe("Terreno de 450 m² em Cotovelo");
    expect(shared.text).toMatch(/^Terreno de 450 m² em Cotovelo – R\$/);
    await expect(page.getByText("Link copiado")).toHaveCount(0);
  });

  test("'Imóveis semelhantes' shows up to three available listings of the same type and purpose", async ({ page }) => {
    await openByCode(page, "TE-CO-505");
    const section = page.getByRole("region", { name: "Imóveis semelhantes" });
    await expect(section).toBeVisible();
    const cards = section.getByRole("article");
    const count = await cards.count();
    expect(count).toBeGreaterThanOrEqual(1);
    expect(count).toBeLessThanOrEqual(3);
    for (const text of await cards.allTextContents()) {
      expect(text).toMatch(/Terreno[\s\S]*Venda/);
      expect(text).not.toContain("Terreno de 450 m² em Cotovelo");
      expect(text).not.toMatch(/Vendido|Alugado|Em negociação/);
    }
    // Cotovelo first (other tests may add land there), then the nearest to R$ 220.000 in price.
    const ranked = (await cards.allTextContents()).map((text) => ({
      sameNeighbourhood: text.includes("Cotovelo, "),
      // 'Sob consulta' is a price of zero.
      distance: Math.abs(Number(/R\$\s*([\d.]+)/.exec(text)?.[1].replace(/\./g, "") ?? 0) - 220_000),
    }));
    const sorted = [...ranked].sort((a, b) => Number(b.sameNeighbourhood) - Number(a.sameNeighbourhood) || a.distance - b.distance);
    expect(ranked).toEqual(sorted);
    const first = (await cards.first().getByRole("heading").textContent())!.trim();
    await cards.first().getByRole("link", { name: /^Ver Detalhes/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(first);
  });
});
