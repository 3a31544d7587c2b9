import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { signInAsAdmin, waitForHydration } from "./helpers";

test.describe.configure({ mode: "serial" });

/**
 * The person's rights in the browser: a visitor's message becomes a lead; the admin finds the
 * person by phone on /crm/privacidade, downloads the JSON export, anonymises after confirming,
 * and the leads list shows the marker instead of the person.
 */
test.describe("privacy (LGPD) requests", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("admin finds a person by phone, exports the JSON and anonymises after confirming", async ({ page, browser }) => {
    const tag = Date.now().toString().slice(-8);
    const name = `Bianca Privada ${Number(tag).toString(36)}`;
    const digits = `849${tag}`;
    const formatted = `(84) 9${tag.slice(0, 4)}-${tag.slice(4)}`;

    const visitorContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await visitorContext.route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }));
    const visitor = await visitorContext.newPage();
    await visitor.goto("/contato");
    await waitForHydration(visitor);
    await visitor.getByLabel("Nome").fill(name);
    await visitor.getByLabel("Telefone (WhatsApp)").fill(digits);
    await visitor.getByLabel("Email").fill(`bianca.${tag}@exemplo.com`);
    await visitor.getByLabel("Mensagem").fill("Quero saber que dados vocês guardam sobre mim.");
    await Promise.all([visitor.waitForEvent("popup"), visitor.getByRole("button", { name: "Enviar Mensagem" }).click()]);
    await expect(visitor.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toBeVisible();
    await visitorContext.close();

    await signInAsAdmin(page);
    await page.getByRole("navigation", { name: "Menu do CRM" }).getByRole("link", { name: "Privacidade (LGPD)" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Privacidade (LGPD)" })).toBeVisible();
    await waitForHydration(page);
    await page.getByLabel("Telefone ou e-mail").fill(formatted);
    await page.getByRole("button", { name: "Buscar" }).click();
    await expect(page).toHaveURL(/\/crm\/privacidade\?lead=[0-9a-f-]{36}$/);
    const person = page.getByRole("region", { name });
    await expect(person.getByText("Quero saber que dados vocês guardam sobre mim.")).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent("download"), person.getByRole("link", { name: "Exportar dados (JSON)" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^dados-titular-[0-9a-f]{8}-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
    expect(exported.leads).toHaveLength(1);
    expect(exported.leads[0]).toMatchObject({ nome_completo: name, telefone: formatted, observacoes: "Quero saber que dados vocês guardam sobre mim." });

    await person.getByRole("button", { name: "Anonimizar" }).click();
    const dialog = page.getByRole("alertdialog", { name: `Anonimizar os dados de ${name}?` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("1 lead");
    // Focus starts on Cancelar: an Enter pressed by reflex erases nothing.
    await expect(dialog.getByRole("button", { name: "Cancelar" })).toBeFocused();
    await dialog.getByRole("button", { name: "Anonimizar 1 lead" }).click();
    await expect(page.getByText("Dados anonimizados em 1 lead")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("region", { name: "Titular anonimizado" }).getByText("Dados anonimizados")).toBeVisible();

    await page.goto("/crm/leads");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText("Titular anonimizado").first()).toBeVisible();
    await expect(page.getByText(name)).toHaveCount(0);
  });
});
