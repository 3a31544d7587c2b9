import crypto from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import sharp from "sharp";
import { startS3Server } from "../helpers/s3-server";
import { createOwnDatabase, type ServerProcess, startServerProcess } from "../helpers/server-process";
import { waitForHydration } from "./helpers";

/**
 * Two app processes on one PostgreSQL database and one S3-compatible bucket behave as one site:
 * changes made through A reach browsers on B (and so do changes made in plain SQL), a session
 * made on A works on B, rate limits count across both, and a photo uploaded through A is served
 * by B. Needs TEST_DATABASE_URL (CI provides it; see .ci/run).
 */
const baseUrl = process.env.TEST_DATABASE_URL;
const ADMIN = { email: "admin@multi.test", password: "senha-multi-1" };

test.describe("two app processes on PostgreSQL", () => {
  test.skip(!baseUrl, "needs TEST_DATABASE_URL");
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  let a: ServerProcess;
  let b: ServerProcess;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let databaseUrl: string;
  let database: { url: string; drop(): Promise<void> } | undefined;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    database = await createOwnDatabase(baseUrl!, "multi");
    databaseUrl = database.url;
    s3 = await startS3Server("fotos");

    const env = {
      DATABASE_URL: databaseUrl,
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      AUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LEAD_LIMIT_PER_HOUR: "3",
    };
    // Both start at once: migrations and the first admin must not be done twice.
    [a, b] = await Promise.all([startServerProcess({ port: 3221, env }), startServerProcess({ port: 3222, env })]);
  });

  test.afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await s3?.stop();
    await database?.drop();
  });

  async function signIn(page: Page, server: ServerProcess) {
    await page.goto(`${server.url}/auth`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Senha").fill(ADMIN.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page).toHaveURL(/\/crm$/);
  }

  test("a session made on A works on B", async ({ page }) => {
    await signIn(page, a);
    // Cookies belong to the host, not the port: the browser sends A's session cookie to B.
    await page.goto(`${b.url}/crm`);
    await expect(page).toHaveURL(`${b.url}/crm`);
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  });

  test("a property created through A appears on a list open on B, and a plain SQL change too", async ({ page, browser }) => {
    const visitor = await browser.newPage();
    await visitor.goto(`${b.url}/imoveis`);
    await waitForHydration(visitor);
    await expect(visitor.locator("html")).toHaveAttribute("data-live", "open", { timeout: 15_000 });

    await signIn(page, a);
    await page.goto(`${a.url}/crm/imoveis`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "Novo Imóvel" }).click();
    const dialog = page.getByRole("dialog", { name: "Novo Imóvel" });
    await dialog.getByLabel("Código").fill("MULTI-1");
    await dialog.getByLabel("Título").fill("Casa criada no processo A");
    await dialog.getByLabel("Descrição").fill("Criada num processo, vista no outro.");
    await dialog.getByLabel("Tipo").selectOption("casa");
    await dialog.getByLabel("Finalidade").selectOption("venda");
    await dialog.getByLabel("Bairro").fill("Ponta Negra");
    await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
    await expect(page.getByText("Imóvel cadastrado com sucesso!")).toBeVisible();

    await expect(visitor.getByRole("article").filter({ hasText: "Casa criada no processo A" })).toBeVisible();

    // A SQL console: no app process involved in the change at all.
    const home = await browser.newPage();
    await home.goto(`${b.url}/`);
    await waitForHydration(home);
    await expect(home.locator("html")).toHaveAttribute("data-live", "open", { timeout: 15_000 });
    await expect(home.getByText("Nenhum imóvel em destaque no momento")).toBeVisible();
    const sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    await sql.query("update properties set featured = true where codigo = 'MULTI-1'");
    await sql.end();
    await expect(home.getByRole("region", { name: "Imóveis em Destaque" }).getByRole("article")).toContainText("Casa criada no processo A");
  });

  test("rate limits count across both processes", async ({ request }) => {
    const booking = (server: ServerProcess, n: number) =>
      request.post(`${server.url}/agendar-visita`, {
        form: { full_name: `Pessoa ${n}`, phone: "(84) 99999-1234" },
        headers: { Origin: server.url },
      });
    expect((await booking(a, 1)).status()).toBe(200);
    expect((await booking(b, 2)).status()).toBe(200);
    expect((await booking(a, 3)).status()).toBe(200);
    const refused = await booking(b, 4);
    expect(refused.status()).toBe(429);
    expect(await refused.text()).toContain("Tente novamente mais tarde");
  });

  test("a photo uploaded through A is served by B", async ({ page }) => {
    await signIn(page, a);
    const cookies = await page.context().cookies();
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#2277aa" } }).jpeg().toBuffer();
    const upload = await page.request.post(`${a.url}/crm/midia`, {
      multipart: { file: { name: "foto.jpg", mimeType: "image/jpeg", buffer: photo } },
      headers: { Cookie: cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ") },
    });
    expect(upload.status()).toBe(200);
    const { url } = (await upload.json()) as { url: string };
    const served = await page.request.get(`${b.url}${url}`);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toBe("image/webp");
    expect(served.headers()["cache-control"]).toContain("immutable");
  });
});
