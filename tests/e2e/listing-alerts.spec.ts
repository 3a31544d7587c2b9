import { expect, test } from "@playwright/test";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { E2E_ADMIN } from "../../playwright.config";
import { signInAsAdmin, waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";

/**
 * 'Avise-me' in Chromium (issue 23, item 3; decision 025): a visitor on an empty /imoveis at
 * 390 px subscribes, the confirmation arrives at a real SMTP server, its link opens the alerts
 * page (which confirms nothing by itself), the button confirms, and 'Cancelar' deletes the alert.
 * The production build runs in a child process of its own (port 3760) with this test's SMTP server.
 */
const PORT = 3760;
const EMAIL = "visitante.alerta@exemplo.com";
const EMPTY_SEARCH = "/imoveis?bairro=Bairro%20Sem%20Im%C3%B3veis&finalidade=venda&tipo=apartamento";

let server: ServerProcess;
let smtp: TestSmtpServer;

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startSmtpServer();
  server = await startServerProcess({ port: PORT, templateDir: TEMPLATE_DIR, env: { SMTP_URL: smtp.url, BACKUP_INTERVAL_HOURS: "0" } });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

test.use({ viewport: { width: 390, height: 844 } });

test("subscribe on an empty /imoveis, confirm from the e-mail, cancel from the alerts page", async ({ page }, testInfo) => {
  await page.goto(`${server.url}${EMPTY_SEARCH}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Nenhum imóvel encontrado" })).toBeVisible();
  const form = page.locator('form[action="/alertas"]');
  await expect(form.getByRole("heading", { name: "Me avise quando surgir um imóvel assim" })).toBeVisible();
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("imoveis-empty-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("imoveis-empty-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });

  // A bad number: the server answers 400 with the site's message.
  await form.getByLabel("E-mail").fill(EMAIL);
  await form.getByLabel("WhatsApp (opcional)").fill("123");
  await form.getByRole("button", { name: "Criar alerta" }).click();
  await expect(page.getByRole("status")).toContainText("Telefone inválido");

  await page.goto(`${server.url}${EMPTY_SEARCH}`);
  await page.locator('form[action="/alertas"]').getByLabel("E-mail").fill(EMAIL);
  await page.locator('form[action="/alertas"]').getByLabel("WhatsApp (opcional)").fill("(84) 98888-1234");
  await page.locator('form[action="/alertas"]').getByRole("button", { name: "Criar alerta" }).click();
  await expect(page.getByRole("status")).toContainText("Enviamos um e-mail de confirmação");

  const mail = await smtp.waitFor((m) => m.to.includes(EMAIL) && m.subject.includes("Confirme seu alerta"), 30_000);
  const link = new RegExp(`http://localhost:${PORT}/alertas/[0-9a-f]{64}`).exec(mail.text)?.[0];
  expect(link).toBeTruthy();
  expect(mail.text).toContain("Bairro Sem Imóveis");

  await page.goto(link!);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Seus alertas de imóveis" })).toBeVisible();
  await expect(page.getByText("Aguardando confirmação")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("alerts-page-390.png"), fullPage: true });
  await page.getByRole("button", { name: "Confirmar alerta" }).click();
  await expect(page.getByRole("status")).toContainText("Alerta confirmado");
  await expect(page.getByText("Ativo", { exact: true })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: testInfo.outputPath("alerts-page-1280.png"), fullPage: true });

  await page.getByRole("button", { name: "Cancelar" }).click();
  // The address's last alert: its page is gone too, and /alertas says so.
  await expect(page).toHaveURL(/\/alertas\?cancelado=1$/);
  await expect(page.getByRole("status")).toContainText("Alerta cancelado");
});

test("an e-mail-only subscriber: listed in CRM → Avise-me, found and erased in Privacidade", async ({ page }, testInfo) => {
  const address = "so.email.alerta@exemplo.com";
  await page.goto(`${server.url}${EMPTY_SEARCH}`);
  await waitForHydration(page);
  const form = page.locator('form[action="/alertas"]');
  await form.getByLabel("E-mail").fill(address);
  await form.getByRole("button", { name: "Criar alerta" }).click();
  await expect(page.getByRole("status")).toContainText("Enviamos um e-mail de confirmação");

  await signInAsAdmin(page, E2E_ADMIN, server.url);
  await page.goto(`${server.url}/crm/avise-me?status=pendentes`);
  const card = page.getByRole("list", { name: "Alertas" }).getByRole("listitem").filter({ hasText: address });
  await expect(card).toContainText("Bairro Sem Imóveis");
  await expect(card).toContainText("0 imóveis disponíveis atendem hoje");
  await page.screenshot({ path: testInfo.outputPath("crm-avise-me-390.png"), fullPage: true });

  await page.goto(`${server.url}/crm/privacidade`);
  await waitForHydration(page);
  await page.getByLabel("Telefone ou e-mail").fill(address.toUpperCase());
  await page.getByRole("button", { name: "Buscar" }).click();
  await expect(page).toHaveURL(/\/crm\/privacidade\?alerta=[0-9a-f-]{36}$/);
  const subscriber = page.getByRole("region", { name: address });
  await expect(subscriber).toContainText("Nenhum lead com este contato");
  await subscriber.getByRole("button", { name: "Apagar alertas" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Apagar alertas" }).click();
  await expect(page.getByText("1 alerta apagado, com os links e e-mails deles")).toBeVisible();
  await expect(page).toHaveURL(/\/crm\/privacidade$/);
  await page.goto(`${server.url}/crm/avise-me?status=pendentes`);
  await expect(page.getByText(address)).toHaveCount(0);
});
