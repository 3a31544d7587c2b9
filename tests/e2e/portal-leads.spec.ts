import { expect, test } from "@playwright/test";
import { startServerOnOwnDatabase } from "../helpers/server-process";
import { signInAsAdmin, waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";

/**
 * The portals (issue 13) on the production build, in a server process of its own (port 3720, its
 * own database): the admin reads the lead webhook's password under 'Portais' in
 * /crm/configuracoes and makes a new one; a portal's POST with the new password (server to
 * server: no Origin, no cookie) becomes a lead that the open CRM tab announces ('Novo lead') and
 * lists with the origin 'Portal (VivaReal)'; the old password gets 401. The feed address is
 * regenerated the same way, and a password typed by hand is checked.
 */
const PORT = 3720;
const ORIGIN = `http://localhost:${PORT}`;
const ADMIN = { email: "admin@portais.test", password: "senha-dos-portais-1" };

let stopServer: () => Promise<void>;

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: ORIGIN });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  ({ stop: stopServer } = await startServerOnOwnDatabase({
    port: PORT,
    label: "portals",
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    templateDir: TEMPLATE_DIR,
  }));
});

test.afterAll(async () => {
  await stopServer?.();
});

const basic = (password: string) => `Basic ${Buffer.from(`vivareal:${password}`).toString("base64")}`;

test("the admin makes a new webhook password; a portal's lead with it reaches the CRM, the old one is refused", async ({ page, playwright }) => {
  await signInAsAdmin(page, ADMIN);
  await page.goto("/crm/configuracoes");
  await waitForHydration(page);
  const portals = page.getByRole("region", { name: "Portais" });
  await expect(portals.getByRole("heading", { name: "Portais", level: 2 })).toBeVisible();

  await expect(portals.getByLabel("Endereço para os leads (webhook)", { exact: true })).toHaveValue(`${ORIGIN}/api/portais/leads`);
  await expect(portals.getByLabel("Usuário", { exact: true })).toHaveValue("vivareal");
  await expect(portals.getByLabel("Endereço do feed", { exact: true })).toHaveValue(new RegExp(`^${ORIGIN}/feeds/vrsync/[A-Za-z0-9_-]{16,128}\\.xml$`));

  // The password is masked until 'Mostrar'.
  const secretField = portals.getByLabel("Senha", { exact: true });
  await expect(secretField).toHaveAttribute("type", "password");
  await portals.getByRole("button", { name: "Mostrar senha" }).click();
  await expect(secretField).toHaveAttribute("type", "text");
  const oldSecret = await secretField.inputValue();
  expect(oldSecret.length).toBeGreaterThanOrEqual(16);

  // 'Gerar nova senha' asks first: the old password stops working.
  await portals.getByRole("button", { name: "Gerar nova senha" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("A senha atual deixa de funcionar");
  await dialog.getByRole("button", { name: "Gerar nova senha" }).click();
  await expect(page.getByText("Nova senha gerada. Informe-a aos portais")).toBeVisible();
  await expect(secretField).not.toHaveValue(oldSecret);
  const newSecret = await secretField.inputValue();

  // The CRM open on the leads list when the portal posts.
  await page.goto("/crm/leads");
  await waitForHydration(page);
  const portal = await playwright.request.newContext({ baseURL: ORIGIN });
  const lead = {
    leadOrigin: "VivaReal",
    timestamp: new Date().toISOString(),
    originLeadId: `e2e-${Date.now()}`,
    originListingId: "87027856",
    clientListingId: "nao-existe",
    name: "Lead Do Portal E2E",
    email: "lead.portal@teste.com",
    ddd: "84",
    phone: "988887777",
    message: "Olá, tenho interesse neste imóvel.",
    temperature: "Alta",
    transactionType: "SELL",
  };
  const refused = await portal.post("/api/portais/leads", { data: { ...lead, originLeadId: `${lead.originLeadId}-old` }, headers: { Authorization: basic(oldSecret) } });
  expect(refused.status()).toBe(401);
  const accepted = await portal.post("/api/portais/leads", { data: lead, headers: { Authorization: basic(newSecret) } });
  expect(accepted.status(), await accepted.text()).toBe(200);
  // A retry is answered the same and adds nothing.
  const retried = await portal.post("/api/portais/leads", { data: lead, headers: { Authorization: basic(newSecret) } });
  expect(retried.status()).toBe(200);
  expect(await retried.json()).toEqual(await accepted.json());
  await portal.dispose();

  // The open tab announces it and lists it once, with its origin.
  await expect(page.locator("[data-sonner-toast]", { hasText: "Novo lead: Lead Do Portal E2E" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Lead Do Portal E2E" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Portal (VivaReal)");

  // The lead's page: where it came from and how warm it is.
  await row.getByRole("link", { name: "Lead Do Portal E2E", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Lead Do Portal E2E" })).toBeVisible();
  await expect(page.getByText("Portal (VivaReal)")).toBeVisible();
  await expect(page.getByText("Alta", { exact: true })).toBeVisible();
  await expect(page.getByText("Lead recebido pelo portal VivaReal")).toBeVisible();
});

test("the feed address is regenerated after a confirmation, and a hand-typed password is checked", async ({ page }) => {
  await signInAsAdmin(page, ADMIN);
  await page.goto("/crm/configuracoes");
  await waitForHydration(page);
  const feed = page.getByLabel("Endereço do feed", { exact: true });
  const oldFeed = await feed.inputValue();
  await page.getByRole("button", { name: "Gerar novo endereço" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("O endereço atual deixa de funcionar");
  await dialog.getByRole("button", { name: "Gerar novo endereço" }).click();
  await expect(page.getByText("Novo endereço do feed gerado.")).toBeVisible();
  await expect(feed).not.toHaveValue(oldFeed);

  await page.getByText("Definir a senha manualmente").click();
  const typed = page.getByLabel("Nova senha", { exact: true });
  await typed.fill("curta");
  await page.getByRole("button", { name: "Salvar senha" }).click();
  await expect(page.getByText("A senha deve ter de 16 a 200 caracteres").first()).toBeVisible();
  await expect(typed).toHaveAttribute("aria-invalid", "true");

  await typed.fill("uma-senha-escolhida-pelo-corretor");
  await page.getByRole("button", { name: "Salvar senha" }).click();
  await expect(page.getByText("Senha salva. Informe-a aos portais")).toBeVisible();
  await expect(page.getByLabel("Senha", { exact: true })).toHaveValue("uma-senha-escolhida-pelo-corretor");

  const answer = await page.request.post("/api/portais/leads", {
    data: { leadOrigin: "ZAP", originLeadId: `e2e-typed-${Date.now()}`, name: "Outro Lead Portal", ddd: "84", phone: "977776666" },
    headers: { Authorization: basic("uma-senha-escolhida-pelo-corretor") },
  });
  expect(answer.status(), await answer.text()).toBe(200);
});
