import { expect, type Page, test } from "@playwright/test";
import { createOwnDatabase, type ServerProcess, startServerProcess, withClient } from "../helpers/server-process";
import { postgresTarget, startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";
import { waitForHydration } from "./helpers";

/**
 * Issue 21, findings 17 and 18, as visitors meet them: the production server on PostgreSQL
 * through a TCP proxy the test pauses (the database freezes) or closes (it refuses connections).
 * Pages and the health probe answer 503 with Retry-After and a Portuguese message instead of
 * hanging; the contact form, the visit booking page and the property page's booking dialog
 * answer with their own 'tente novamente' message and keep what was typed, with JavaScript and
 * without; and all works again once the database does. Needs TEST_DATABASE_URL.
 */
const base = process.env.TEST_DATABASE_URL;
const PORT = 3271;
const ADMIN = { email: "admin@falhas.test", password: "senha-das-falhas-1" };
const CONTACT = { name: "Maria Congelada", phone: "(84) 99999-1234", email: "maria@exemplo.com", message: "Procuro casa com quintal em Ponta Negra." };
const BOOKING = { name: "João Congelado", phone: "(84) 98888-4321", notes: "Sábado de manhã" };
// The answer takes as long as the database bounds allow (about 17 s at most): wait longer.
const SLOW = { timeout: 40_000 };

test.describe("PostgreSQL that freezes or refuses connections, as visitors see it", () => {
  test.skip(!base, "needs TEST_DATABASE_URL");
  test.describe.configure({ mode: "serial", timeout: 180_000 });

  let proxy: TcpProxy;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let server: ServerProcess;
  let propertyId: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    proxy = await startTcpProxy(postgresTarget(base!));
    database = await createOwnDatabase(base!, "faults");
    server = await startServerProcess({
      port: PORT,
      env: { DATABASE_URL: proxy.urlFor(database.url), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LEAD_LIMIT_PER_HOUR: "100" },
    });
    propertyId = await withClient(database.url, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into properties (codigo, title, description, type, purpose, price, area, bedrooms, neighborhood)
         values ('FALHA-1', 'Casa com quintal no Tirol', 'Casa térrea com quintal, varanda e garagem para dois carros.', 'casa', 'venda', 650000, 180, 3, 'Tirol')
         returning id`,
      );
      return rows[0].id;
    });
  });

  test.afterAll(async () => {
    proxy?.resume();
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  });

  async function fillContact(page: Page) {
    await page.getByLabel("Nome").fill(CONTACT.name);
    await page.getByLabel("Telefone (WhatsApp)").fill(CONTACT.phone);
    await page.getByLabel("Email").fill(CONTACT.email);
    await page.getByLabel("Mensagem").fill(CONTACT.message);
  }
  async function expectContactKept(page: Page) {
    await expect(page.getByLabel("Nome")).toHaveValue(CONTACT.name);
    await expect(page.getByLabel("Telefone (WhatsApp)")).toHaveValue(CONTACT.phone);
    await expect(page.getByLabel("Email")).toHaveValue(CONTACT.email);
    await expect(page.getByLabel("Mensagem")).toHaveValue(CONTACT.message);
  }

  test("frozen: 503 pages and health, and every lead form keeps its fields and says 'tente novamente'; then all recovers", async ({ page, browser }) => {
    // Everything is loaded while the database answers; the property page's dialog is open.
    await page.goto(`${server.url}/contato`);
    await waitForHydration(page);
    await fillContact(page);
    const property = await page.context().newPage();
    await property.goto(`${server.url}/imoveis/${propertyId}`);
    await waitForHydration(property);
    await property.getByRole("link", { name: "Agendar Visita" }).click();
    const dialog = property.getByRole("dialog", { name: "Agendar Visita" });
    await dialog.getByLabel("Nome completo").fill(BOOKING.name);
    await dialog.getByLabel("Telefone (WhatsApp)").fill(BOOKING.phone);
    const plainContext = await browser.newContext({ javaScriptEnabled: false });
    const plain = await plainContext.newPage();
    await plain.goto(`${server.url}/contato`);
    await fillContact(plain);
    const plainBooking = await plainContext.newPage();
    await plainBooking.goto(`${server.url}/agendar-visita?imovel=${propertyId}`);
    await plainBooking.getByLabel("Nome completo").fill(BOOKING.name);
    await plainBooking.getByLabel("Telefone (WhatsApp)").fill(BOOKING.phone);
    await plainBooking.getByLabel("Mensagem (opcional)").fill(BOOKING.notes);

    proxy.pause();

    // Pages nobody asked for yet (not in the page cache) and the health probe: 503 + Retry-After.
    const [list, privacy, health] = await Promise.all([
      fetch(`${server.url}/imoveis?bairro=Tirol`),
      fetch(`${server.url}/privacidade`),
      fetch(`${server.url}/healthz`),
    ]);
    for (const answer of [list, privacy, health]) {
      expect(answer.status, answer.url).toBe(503);
      expect(answer.headers.get("retry-after"), answer.url).toMatch(/^\d+$/);
    }
    // A page whose data could not be read: the error page says why, in Portuguese.
    const privacyPage = await privacy.text();
    expect(privacyPage).toContain("Serviço indisponível");
    expect(privacyPage).toContain("Não foi possível carregar esta página agora. Tente novamente em alguns segundos.");

    // With JavaScript: the contact form's own message, the chat tab it opened closed again, the fields kept.
    await page.getByRole("button", { name: "Enviar Mensagem" }).click();
    await expect(page.getByText("Erro ao enviar mensagem. Tente novamente.")).toBeVisible(SLOW);
    await expectContactKept(page);
    // The property page's booking dialog: its message, still open, still filled in.
    await dialog.getByRole("button", { name: "Agendar Visita" }).click();
    await expect(property.getByText("Erro ao agendar visita. Tente novamente.")).toBeVisible(SLOW);
    await expect(dialog.getByLabel("Nome completo")).toHaveValue(BOOKING.name);
    // Without JavaScript: the page comes back with the message and the form as it was sent.
    const [plainAnswer] = await Promise.all([plain.waitForNavigation(SLOW), plain.getByRole("button", { name: "Enviar Mensagem" }).click()]);
    expect(plainAnswer?.status()).toBe(503);
    await expect(plain.getByRole("status")).toHaveText("Erro ao enviar mensagem. Tente novamente.");
    await expectContactKept(plain);
    const [bookingAnswer] = await Promise.all([plainBooking.waitForNavigation(SLOW), plainBooking.getByRole("button", { name: "Agendar Visita" }).click()]);
    expect(bookingAnswer?.status()).toBe(503);
    await expect(plainBooking.getByRole("status")).toHaveText("Erro ao agendar visita. Tente novamente.");
    await expect(plainBooking.getByLabel("Nome completo")).toHaveValue(BOOKING.name);
    await expect(plainBooking.getByLabel("Mensagem (opcional)")).toHaveValue(BOOKING.notes);

    proxy.resume();
    await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status, SLOW).toBe(200);
    await page.context().route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }));
    await page.getByRole("button", { name: "Enviar Mensagem" }).click();
    await expect(page.getByText("Mensagem enviada! Redirecionando para o WhatsApp...")).toBeVisible(SLOW);
    expect((await fetch(`${server.url}/imoveis?bairro=Tirol`)).status).toBe(200);
    await plainContext.close();
  });

  test("refusing connections: the forms answer with their own message, never 'Unexpected Server Error'", async ({ page }) => {
    await page.goto(`${server.url}/contato`);
    await waitForHydration(page);
    await fillContact(page);
    const signIn = await page.context().newPage();
    await signIn.goto(`${server.url}/auth`);
    await waitForHydration(signIn);
    await signIn.getByLabel("Email").fill(ADMIN.email);
    await signIn.getByLabel("Senha").fill(ADMIN.password);

    await proxy.refuse();
    await page.getByRole("button", { name: "Enviar Mensagem" }).click();
    await expect(page.getByText("Erro ao enviar mensagem. Tente novamente.")).toBeVisible(SLOW);
    await expect(page.getByText("Unexpected Server Error")).toHaveCount(0);
    await expectContactKept(page);
    await signIn.getByRole("button", { name: "Entrar" }).click();
    await expect(signIn.getByText("Serviço indisponível no momento. Tente novamente em alguns segundos.")).toBeVisible(SLOW);
    await expect(signIn.getByLabel("Email")).toHaveValue(ADMIN.email);

    await proxy.accept();
    await signIn.getByRole("button", { name: "Entrar" }).click();
    await expect(signIn).toHaveURL(/\/crm$/, SLOW);
  });
});
