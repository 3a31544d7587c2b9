import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";

/**
 * 'Esqueci minha senha' end to end in Chromium: the form on /auth, the e-mail as a real SMTP
 * server receives it, its link, the new password, and every old session gone. The production
 * build runs in a child process of its own (port 3340) whose SMTP_URL points at this test's SMTP
 * server, on a copy of the seeded template (its admin is the one whose password is reset).
 */
const PORT = 3340;

let server: ServerProcess;
let smtp: TestSmtpServer;

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startSmtpServer();
  server = await startServerProcess({
    port: PORT,
    templateDir: TEMPLATE_DIR,
    env: { SMTP_URL: smtp.url, ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, BACKUP_INTERVAL_HOURS: "0" },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

test.use({ viewport: { width: 390, height: 844 } });

test("forgot password: e-mail, link, new password, old sessions ended", async ({ page, browser }) => {
  // A session on another device, which the reset must end.
  const otherDevice = await browser.newContext();
  const other = await otherDevice.newPage();
  await other.goto(`${server.url}/auth`);
  await waitForHydration(other);
  await other.getByLabel("Email").fill(E2E_ADMIN.email);
  await other.getByLabel("Senha").fill(E2E_ADMIN.password);
  await other.getByRole("button", { name: "Entrar" }).click();
  await expect(other).toHaveURL(/\/crm$/);

  await page.goto(`${server.url}/auth`);
  await waitForHydration(page);
  await page.getByRole("link", { name: "Esqueci minha senha" }).click();
  await expect(page.getByRole("heading", { name: "Esqueci minha senha" })).toBeVisible();
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByRole("button", { name: "Enviar link" }).click();
  await expect(page.getByText("Verifique seu email")).toBeVisible();

  const mail = await smtp.waitFor((m) => m.to.includes(E2E_ADMIN.email) && m.subject.includes("Redefinição de senha"), 30_000);
  const link = /http:\/\/localhost:3340\/auth\/redefinir\?token=[\w-]+/.exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  expect(mail.html).toContain(link!);

  await page.goto(link!);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Criar nova senha" })).toBeVisible();
  await page.getByLabel("Nova senha").fill("1234567");
  await page.getByRole("button", { name: "Salvar nova senha" }).click();
  await expect(page.getByText("Senha deve ter pelo menos 8 caracteres")).toBeVisible();
  // A common password passes the browser's check and is refused by the server.
  await page.getByLabel("Nova senha").fill("12345678");
  await page.getByRole("button", { name: "Salvar nova senha" }).click();
  await expect(page.getByText("Essa senha é muito comum e fácil de adivinhar. Escolha outra.")).toBeVisible();
  await page.getByLabel("Nova senha").fill("nova-senha-do-admin-7");
  await page.getByRole("button", { name: "Salvar nova senha" }).click();
  await expect(page).toHaveURL(/\/auth\?aviso=senha-redefinida$/);
  await expect(page.getByText("Senha alterada. Entre com a nova senha.")).toBeVisible();

  // The other device was signed out.
  await other.goto(`${server.url}/crm`);
  await expect(other).toHaveURL(/\/auth$/);
  await otherDevice.close();

  // The old password no longer works; the new one does.
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Senha").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByText("Email ou senha inválidos")).toBeVisible();
  await page.getByLabel("Senha").fill("nova-senha-do-admin-7");
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/crm$/);

  // The link worked once.
  await page.goto(link!);
  await expect(page.getByText("Este link não vale mais")).toBeVisible();
});
