import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * Push alerts in a real Chromium (issue 25). Headless Chromium has no push service to subscribe
 * to, so this covers the browser's two other halves: 'Alertas no celular' in 'Minha conta'
 * (labelled, keyboard-operable, fits a phone, offers to turn alerts on once the CRM's service
 * worker runs), and the push handler the CRM's worker pulls in (public/crm-sw-push.js) given a
 * push through the DevTools protocol: it shows the notification, and a URL of another origin is
 * never kept.
 */

const origin = `http://localhost:${E2E_PORT}`;

test("'Alertas no celular' offers alerts once the CRM's worker runs; preferences save from the keyboard", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page);
  await page.goto("/crm/conta");
  await waitForHydration(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Ativar alertas neste aparelho" })).toBeVisible();
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await expectFitsWindow(page, "/crm/conta at 390 px");

  const visits = page.getByRole("checkbox", { name: "Visita em 1 hora" });
  await expect(visits).toBeChecked();
  await visits.focus();
  await page.keyboard.press("Space");
  await page.getByRole("button", { name: "Salvar preferências" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Preferências de alertas salvas.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Visita em 1 hora" })).not.toBeChecked();
  await page.getByRole("checkbox", { name: "Visita em 1 hora" }).check();
  await page.getByRole("button", { name: "Salvar preferências" }).click();
  await expect(page.getByText("Preferências de alertas salvas.").last()).toBeVisible();
});

test("the service worker's push handler shows the alert and keeps only same-origin URLs", async ({ browser }) => {
  const context = await browser.newContext();
  await context.grantPermissions(["notifications"], { origin });
  const page = await context.newPage();
  await signInAsAdmin(page);
  await page.goto("/crm/conta");
  await waitForHydration(page);
  // The CRM's own service worker (public/crm/sw.js), which pulls the push handler in.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await waitForHydration(page);
  // With a service worker the card offers to turn alerts on (a real subscription needs a push service).
  await expect(page.getByRole("button", { name: "Ativar alertas neste aparelho" })).toBeVisible();

  const cdp = await context.newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => registrations.push(...event.registrations));
  await cdp.send("ServiceWorker.enable");
  const crmScope = (r: { scopeURL: string }) => r.scopeURL === `${origin}/crm`;
  await expect.poll(() => registrations.find(crmScope)?.registrationId).toBeTruthy();
  const registrationId = registrations.find(crmScope)!.registrationId;
  const notifications = () =>
    page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url })));

  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin,
    registrationId,
    data: JSON.stringify({ title: "Novo lead", body: "Maria chegou pelo formulário de contato.", url: "/crm/leads/abc", tag: "lead:abc" }),
  });
  await expect.poll(notifications).toContainEqual({ title: "Novo lead", body: "Maria chegou pelo formulário de contato.", tag: "lead:abc", url: `${origin}/crm/leads/abc` });

  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin,
    registrationId,
    data: JSON.stringify({ title: "Outro", body: "x", url: "https://evil.example/phish", tag: "t2" }),
  });
  await expect.poll(notifications).toContainEqual({ title: "Outro", body: "x", tag: "t2", url: `${origin}/crm` });
  await context.close();
});
