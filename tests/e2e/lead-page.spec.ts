import { expect, type Page, test } from "@playwright/test";
import { signInAsAdmin, waitForHydration } from "./helpers";

test.describe.configure({ mode: "serial" });

/** The page's live stream is open (it opens only after load and idle). */
async function waitForLiveStream(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-live", "open", { timeout: 15_000 });
}

test.describe("the lead page", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("a visitor's message toasts in an open CRM tab; staff open it, note, move and schedule the next contact", async ({ page, browser }) => {
    const name = `Larissa Toast ${Date.now().toString(36)}`;
    await signInAsAdmin(page);
    // Any CRM page: the toast is the layout's.
    await page.goto("/crm/imoveis");
    await waitForHydration(page);
    await waitForLiveStream(page);

    // A visitor, in another browser, sends the contact form.
    const visitorContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await visitorContext.route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }));
    const visitor = await visitorContext.newPage();
    await visitor.goto("/contato");
    await waitForHydration(visitor);
    await visitor.getByLabel("Nome").fill(name);
    await visitor.getByLabel("Telefone (WhatsApp)").fill("84977776666");
    await visitor.getByLabel("Email").fill("larissa@exemplo.com");
    await visitor.getByLabel("Mensagem").fill("Quero alugar um apartamento perto da praia.");
    await Promise.all([visitor.waitForEvent("popup"), visitor.getByRole("button", { name: "Enviar Mensagem" }).click()]);
    await expect(visitor.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toBeVisible();
    await visitorContext.close();

    // The CRM tab announces it, with a link to the lead.
    const toast = page.locator("[data-sonner-toast]", { hasText: `Novo lead: ${name}` });
    await expect(toast).toBeVisible({ timeout: 20_000 });
    await toast.getByRole("link", { name: "Abrir lead" }).click();
    await expect(page).toHaveURL(/\/crm\/leads\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await waitForHydration(page);
    const history = page.getByRole("list", { name: "Histórico do lead" });
    await expect(history.getByText("Lead recebido pelo site")).toBeVisible();
    await expect(history.getByText("E-mail: Novo lead: " + name).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "larissa@exemplo.com" })).toHaveAttribute("href", "mailto:larissa@exemplo.com");

    // A note.
    await page.getByLabel("Nova nota").fill("Ligou às 10h: quer 2 quartos, até R$ 3 mil.");
    await page.getByRole("button", { name: "Adicionar nota" }).click();
    await expect(page.getByText("Nota adicionada!")).toBeVisible();
    await expect(history.getByText("Ligou às 10h: quer 2 quartos, até R$ 3 mil.")).toBeVisible();
    await expect(page.getByLabel("Nova nota")).toHaveValue("");

    // A status change.
    await page.getByLabel("Status").selectOption("em_atendimento");
    await page.getByRole("button", { name: "Mudar status" }).click();
    await expect(page.getByText("Status atualizado!")).toBeVisible();
    await expect(history.getByText("Status: Novo → Em atendimento")).toBeVisible();

    // The next contact, typed in the broker's time.
    await page.getByLabel("Próximo contato (data e hora)").fill("2027-01-15T09:30");
    await page.getByRole("button", { name: "Salvar próximo contato" }).click();
    await expect(page.getByText("Próximo contato definido!")).toBeVisible();
    await expect(history.getByText("Próximo contato: 15/01/2027, 09:30")).toBeVisible();

    // Newest first: the next contact, then the status, then the note.
    const titles = await history.locator("li").evaluateAll((items) => items.map((item) => item.getAttribute("data-kind")));
    expect(titles.slice(0, 3)).toEqual(["next_contact", "status", "note"]);

    // The WhatsApp template is filled with the lead's first name, to the lead's number.
    const href = await page.locator('a[data-template="primeiro-contato"]').getAttribute("href");
    const link = new URL(href!);
    expect(link.origin + link.pathname).toBe("https://wa.me/5584977776666");
    expect(link.searchParams.get("text")).toMatch(/^Olá, Larissa! /);
    expect(link.searchParams.get("text")).not.toContain("{");

    // The lead survives a reload with everything in place.
    await page.reload();
    await expect(page.getByText("Ligou às 10h: quer 2 quartos, até R$ 3 mil.")).toBeVisible();
    await expect(page.getByLabel("Próximo contato (data e hora)")).toHaveValue("2027-01-15T09:30");
    await expect(page.getByRole("link", { name: "Agendar visita" })).toHaveAttribute("href", /\/crm\/visitas\?lead=[0-9a-f-]{36}$/);
  });

  test("'Perdido' asks why on the lead page and in the table's dialog; another status clears it", async ({ page }) => {
    const name = `Perda Página ${Date.now().toString(36)}`;
    await signInAsAdmin(page);
    const created = await page.request.post("/crm/leads", {
      form: { intent: "create", full_name: name, phone: "(84) 98811-2233", interest_type: "comprar", origin: "site", status: "em_atendimento" },
    });
    expect(created.ok()).toBe(true);
    await page.goto(`/crm/leads?busca=${encodeURIComponent(name)}`);
    await waitForHydration(page);
    await page.getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await waitForHydration(page);
    const history = page.getByRole("list", { name: "Histórico do lead" });

    // The lead page: choosing 'Perdido' shows the reason and the note; no reason, no change.
    await page.getByLabel("Status", { exact: true }).selectOption("perdido");
    await expect(page.getByLabel("Motivo da perda")).toBeVisible();
    await page.getByRole("button", { name: "Mudar status" }).click();
    await expect(page.getByText("Selecione o motivo da perda")).toBeVisible();
    await expect(page.getByLabel("Motivo da perda")).toBeFocused();
    await page.getByLabel("Motivo da perda").selectOption("Localização");
    await page.getByLabel("Observação da perda (opcional)").fill("Queria Ponta Negra.");
    await page.getByRole("button", { name: "Mudar status" }).click();
    await expect(page.getByText("Status atualizado!")).toBeVisible();
    await expect(history.getByText("Status: Em atendimento → Perdido")).toBeVisible();
    await expect(history.getByText(/Motivo: Localização · Observação: Queria Ponta Negra\./)).toBeVisible();
    const details = page.getByRole("region", { name: "Dados do lead" });
    await expect(details.locator("dl").getByText("Queria Ponta Negra.")).toBeVisible();
    await expect(details.locator("dl")).toContainText("Localização");

    // The table's dialog: the lost lead's reason is filled in; back to 'Em atendimento' clears it.
    await page.goto(`/crm/leads?busca=${encodeURIComponent(name)}`);
    await waitForHydration(page);
    await page.locator("table tbody tr", { hasText: name }).getByRole("button", { name: /Editar/ }).click();
    const edit = page.getByRole("dialog", { name: "Editar Lead" });
    await expect(edit.getByLabel("Motivo da perda")).toHaveValue("Localização");
    await edit.getByLabel("Status").selectOption("em_atendimento");
    await expect(edit.getByLabel("Motivo da perda")).toHaveCount(0);
    await edit.getByRole("button", { name: "Salvar Alterações" }).click();
    await expect(page.getByText("Lead atualizado com sucesso!")).toBeVisible();
    // …and 'Perdido' again needs a reason chosen anew.
    await page.locator("table tbody tr", { hasText: name }).getByRole("button", { name: /Editar/ }).click();
    await edit.getByLabel("Status").selectOption("perdido");
    await expect(edit.getByLabel("Motivo da perda")).toHaveValue("");
    await edit.getByRole("button", { name: "Salvar Alterações" }).click();
    await expect(edit.getByText("Selecione o motivo da perda")).toBeVisible();
    await edit.getByLabel("Motivo da perda").selectOption("Desistiu");
    await edit.getByRole("button", { name: "Salvar Alterações" }).click();
    await expect(page.getByText("Lead atualizado com sucesso!").first()).toBeVisible();
    await expect(edit).toBeHidden();
    await page.goto(`/crm/leads?busca=${encodeURIComponent(name)}&status=perdido`);
    await expect(page.locator("table tbody tr", { hasText: name })).toHaveCount(1);
  });

  test("an unknown lead answers 404 with a way back", async ({ page }) => {
    await signInAsAdmin(page);
    for (const id of ["00000000-0000-4000-8000-000000000000", "nao-e-um-id"]) {
      const response = await page.goto(`/crm/leads/${id}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Lead não encontrado" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Voltar para os leads" })).toHaveAttribute("href", "/crm/leads");
    }
  });
});
