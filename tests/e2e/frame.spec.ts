import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { waitForHydration } from "./helpers";

test.describe("the site frame", () => {
  test("home renders on the server with the broker's frame and demo listings", async ({ page, request }) => {
    // The HTML itself (what Google and WhatsApp read) already has the content.
    const html = await (await request.get("/")).text();
    expect(html).toContain('<html lang="pt-BR"');
    expect(html).toContain("Realize o Sonho do Imóvel Perfeito");
    expect(html).toContain('property="og:title"');

    await page.goto("/");
    await expect(page).toHaveTitle(/Corretor Exemplo Imóveis/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Realize o Sonho do Imóvel Perfeito");
    const featured = page.getByRole("region", { name: "Imóveis em Destaque" }).getByRole("article");
    await expect(featured).toHaveCount(3);
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText("Seu sonho é meu compromisso");
    await expect(footer).toContainText("CRECI");
    await expect(footer).toContainText("© 2025");
    await expect(footer.getByRole("link", { name: "Instagram" })).toHaveAttribute("target", "_blank");
  });

  test("navbar navigates and marks the current page", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Principal" });
    await expect(nav.getByRole("link", { name: "Início" })).toHaveAttribute("aria-current", "page");
    await nav.getByRole("link", { name: "Imóveis", exact: true }).click();
    await expect(page).toHaveURL(/\/imoveis$/);
    await expect(nav.getByRole("link", { name: "Imóveis", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Falar no WhatsApp" }).or(nav.getByRole("link", { name: /WhatsApp/ }))).toHaveAttribute(
      "href",
      // Through the redirect that counts the tap (decision 028), named by the page it is on.
      "/whatsapp?pagina=lista",
    );
  });

  test("phone menu opens, and closes when a link is followed", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    // The scripts start after the first paint (decision 008): a tap before hydration does nothing
    // (without JavaScript the footer carries the same links).
    await waitForHydration(page);
    const toggle = page.getByRole("button", { name: "Abrir menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    // The WhatsApp button stays visible on a phone.
    await expect(page.getByRole("banner").getByRole("link", { name: /WhatsApp/ })).toBeVisible();
    await toggle.click();
    const menu = page.locator("#mobile-menu");
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Imóveis" }).click();
    await expect(page).toHaveURL(/\/imoveis$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Abrir menu" })).toHaveAttribute("aria-expanded", "false");
  });

  test("unknown paths get the 404 page with status 404 and a link home", async ({ page }) => {
    const response = await page.goto("/esta-pagina-nao-existe");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Voltar para o início" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("every response carries the security headers; an uncached page a per-request CSP nonce", async ({ request }) => {
    // /auth is never cached (decision 006): its inline scripts carry this request's nonce.
    const first = await request.get("/auth");
    const second = await request.get("/auth");
    const csp = first.headers()["content-security-policy"];
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("'unsafe-inline' 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(second.headers()["content-security-policy"]).not.toBe(csp);
    expect(first.headers()["x-content-type-options"]).toBe("nosniff");
    expect(first.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    const html = await first.text();
    const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes] of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
    const asset = await request.get(html.match(/\/assets\/[^"]+\.js/)![0]);
    expect(asset.headers()["cache-control"]).toContain("immutable");
    expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
    // A build file is no document: no policy bytes on each of the page's scripts (decision 003).
    expect(asset.headers()["content-security-policy"]).toBeUndefined();
    expect(asset.headers()["x-frame-options"]).toBeUndefined();
    // A page answered under /assets/ is one, and keeps the whole set.
    const missing = await request.get("/assets/nao-existe.js");
    expect(missing.status()).toBe(404);
    expect(missing.headers()["content-type"]).toContain("text/html");
    expect(missing.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  test("a cached public page allows exactly its own inline scripts by hash, with no nonce and no 'unsafe-inline'", async ({ request }) => {
    await request.get("/");
    const cached = await request.get("/");
    const csp = cached.headers()["content-security-policy"];
    const scriptSrc = /script-src ([^;]+)/.exec(csp)![1];
    expect(scriptSrc).not.toContain("nonce-");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(cached.headers()["x-content-type-options"]).toBe("nosniff");
    const html = await cached.text();
    // Scripts that run (data blocks such as JSON-LD need no permission).
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes]) => !/type="application\/(ld\+)?json"/.test(attributes))
      .map(([, , body]) => body);
    expect(inline.length).toBeGreaterThan(0);
    const crypto = await import("node:crypto");
    const hashes = inline.map((body) => `'sha256-${crypto.createHash("sha256").update(body, "utf8").digest("base64")}'`);
    for (const hash of hashes) expect(scriptSrc).toContain(hash);
    expect(scriptSrc.match(/'sha256-/g)?.length).toBe(new Set(hashes).size);
  });

  test("the admin from the configuration signs in and reaches the dashboard", async ({ page }) => {
    await page.goto("/auth");
    // The toast is the hydrated form's; a click before hydration posts the plain form (no toast).
    await waitForHydration(page);
    await page.getByLabel("Email").fill(E2E_ADMIN.email);
    await page.getByLabel("Senha").fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page).toHaveURL(/\/crm$/);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(page.getByText("Login realizado com sucesso!")).toBeVisible();
  });
});
