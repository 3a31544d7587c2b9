import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { signInAsAdmin, waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";

/**
 * The broker's day on the production build, with a real SMTP server (issue 11): a visitor books a
 * visit; the alert e-mail arrives with the lead's links while an open CRM tab shows the toast;
 * staff follow the e-mail's link, add a note and set the next contact for today, and the dashboard
 * lists the lead under 'Para hoje'. Before that, a server that dies between storing a lead and
 * sending its alert delivers that alert exactly once after the restart. (The board, the agenda
 * with its .ics, the settings and phone photos have their own specs.)
 */
const PORT = 3660;
const ORIGIN = `http://localhost:${PORT}`;
const ALERTS_TO = "alertas@corretor.test";

let smtp: TestSmtpServer;
let server: ServerProcess | undefined;

test.describe.configure({ mode: "serial", timeout: 180_000 });
test.use({ baseURL: ORIGIN });

function start(env: Record<string, string>, keepData = false) {
  return startServerProcess({
    port: PORT,
    templateDir: TEMPLATE_DIR,
    keepData,
    // The embedded database: the one a restart could most easily lose a message in.
    env: { DATABASE_URL: "", BROKER_EMAIL: ALERTS_TO, ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, ...env },
  });
}

test.beforeAll(async () => {
  smtp = await startSmtpServer();
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

/** Today in Natal (UTC−3), as a datetime-local value early in the day: due today, whatever the hour. */
function earlyTodayInNatal(): string {
  const day = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10);
  return `${day}T00:05`;
}

async function bookVisit(page: Page, name: string, phone: string) {
  await page.goto("/imoveis");
  await page.locator('a[href^="/imoveis/"]').first().click();
  await expect(page).toHaveURL(/\/imoveis\/[0-9a-f-]{36}$/);
  await waitForHydration(page);
  const title = (await page.getByRole("heading", { level: 1 }).textContent())!;
  await page.getByRole("link", { name: "Agendar Visita" }).click();
  const dialog = page.getByRole("dialog", { name: "Agendar Visita" });
  await dialog.getByLabel("Nome completo").fill(name);
  await dialog.getByLabel("Telefone (WhatsApp)").fill(phone);
  await dialog.getByRole("button", { name: "Agendar Visita" }).click();
  await expect(page.getByText("Agendamento realizado com sucesso! Entraremos em contato em breve.")).toBeVisible();
  return title;
}

test("a server that dies between storing a lead and sending its alert sends it once after the restart", async ({ browser }) => {
  // No SMTP_URL: the alert waits in the outbox, as it would if the process died a moment later.
  server = await start({});
  const name = `Reinício ${Date.now().toString(36)}`;
  const visitor = await browser.newPage({ baseURL: ORIGIN });
  await bookVisit(visitor, name, "84977770001");
  await visitor.close();
  server.process.kill("SIGKILL");
  await new Promise((resolve) => server!.process.once("exit", resolve));

  // Back up on the same data, now with the SMTP server configured.
  server = await start({ SMTP_URL: smtp.url }, true);
  const mail = await smtp.waitFor((m) => m.subject === `Novo lead: ${name}`, 30_000);
  expect(mail.to).toEqual([ALERTS_TO]);
  // A few more rounds of the mail worker (every 5 s) must not send it again.
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  expect(smtp.messages.filter((m) => m.subject === `Novo lead: ${name}`)).toHaveLength(1);
});

test("a visit booked on the site: the e-mail and the toast arrive, staff follow up, and the dashboard lists it for today", async ({ page, browser }) => {
  server ??= await start({ SMTP_URL: smtp.url });
  await signInAsAdmin(page);
  await page.goto("/crm");
  await waitForHydration(page);
  await expect(page.locator("html")).toHaveAttribute("data-live", "open", { timeout: 15_000 });

  const name = `Dia de Trabalho ${Date.now().toString(36)}`;
  const visitor = await browser.newPage({ baseURL: ORIGIN, viewport: { width: 390, height: 844 } });
  const propertyTitle = await bookVisit(visitor, name, "84977772222");
  await visitor.close();

  // The open CRM tab announces it.
  await expect(page.locator("[data-sonner-toast]", { hasText: `Novo lead: ${name}` })).toBeVisible({ timeout: 20_000 });

  // The alert, with everything needed to answer from a phone.
  const mail = await smtp.waitFor((m) => m.subject === `Novo lead: ${name}`, 30_000);
  expect(mail.to).toEqual([ALERTS_TO]);
  expect(mail.text).toContain(name);
  expect(mail.text).toContain(propertyTitle);
  expect(mail.html).toContain('href="tel:+5584977772222"');
  expect(mail.html).toContain('href="https://wa.me/5584977772222');
  const crmLink = mail.text.match(new RegExp(`${ORIGIN}/crm/leads/[0-9a-f-]{36}`))?.[0];
  expect(crmLink, mail.text).toBeTruthy();
  expect(mail.html).toContain(`href="${crmLink}"`);

  // Staff open the lead from the e-mail.
  await page.goto(crmLink!);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await waitForHydration(page);
  const history = page.getByRole("list", { name: "Histórico do lead" });
  await expect(history.getByText(`E-mail: Novo lead: ${name}`)).toBeVisible();

  await page.getByLabel("Nova nota").fill("Confirmou a visita por telefone; vem com a esposa.");
  await page.getByRole("button", { name: "Adicionar nota" }).click();
  await expect(history.getByText("Confirmou a visita por telefone; vem com a esposa.")).toBeVisible();

  await page.getByLabel("Próximo contato (data e hora)").fill(earlyTodayInNatal());
  await page.getByRole("button", { name: "Salvar próximo contato" }).click();
  await expect(page.getByText("Próximo contato definido!")).toBeVisible();

  // The dashboard's 'Para hoje' lists the lead, with a link back to it.
  await page.goto("/crm");
  const dueToday = page.getByTestId("due-today");
  const link = dueToday.getByRole("link", { name: new RegExp(name) });
  await expect(link).toBeVisible();
  expect(ORIGIN + (await link.getAttribute("href"))).toBe(crmLink);
});
