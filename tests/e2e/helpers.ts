import { type BrowserContext, expect, type Locator, type Page } from "@playwright/test";
import { E2E_ADMIN } from "../../playwright.config";

/** Signs in through the real form (the admin from the test configuration); `baseUrl` for a spec's own server. */
export async function signInAsAdmin(page: Page, credentials = E2E_ADMIN, baseUrl = "") {
  // A refusal (503 from the overload guard, 500) fails here with its status, not a minute later
  // while waiting for a form that never came.
  const response = await page.goto(`${baseUrl}/auth`);
  expect(response?.status(), "GET /auth").toBe(200);
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Senha").fill(credentials.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/crm/);
}

/** The number shown on a dashboard counter. */
export async function dashboardCounter(page: Page, testId: string): Promise<number> {
  await page.goto("/crm");
  return Number(await page.getByTestId(testId).locator("[data-value]").textContent());
}

/** Waits until the page has hydrated (React attached its handlers), so clicks are handled by the app. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules !== undefined);
  await page.waitForLoadState("load");
}

/**
 * The lead board is a lazy chunk hydrated after the page: a menu choice before then reaches no
 * handler. Its server HTML is larger than React's streaming chunk, so React sends it after the
 * shell as a hidden copy at the end of the body (div[hidden] id="S:…") and moves it into place on
 * a later frame: until then every card is in the page twice, which a strict locator refuses.
 */
export async function waitForBoard(page: Page) {
  await waitForHydration(page);
  await expect(page.locator('[data-testid="lead-board"][data-ready]')).toBeAttached({ timeout: 15_000 });
  await expect(page.locator('div[hidden][id^="S:"]')).toHaveCount(0);
}

/** Fails when the page is wider than the window (a phone visitor would have to scroll sideways). */
export async function expectFitsWindow(page: Page, label: string) {
  const fit = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(fit.scrollWidth, `${label} is ${fit.scrollWidth} px wide in a ${fit.innerWidth} px window`).toBeLessThanOrEqual(fit.innerWidth);
}

/**
 * Answers for the chat app's site (out of reach here), also at the end of our /whatsapp redirect
 * (decision 028). Playwright does not route the request a redirect leads to (it would go out to
 * the internet), so the redirect is fetched from the real server here (it records the tap as
 * usual) and its Location handed to the browser as a new navigation, which is routed. Returns the
 * redirects' Location headers, in order.
 */
export async function answerForWhatsapp(context: BrowserContext): Promise<string[]> {
  const locations: string[] = [];
  await context.route(/\/whatsapp\?/, async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const location = response.headers()["location"] ?? "";
    locations.push(location);
    expect(response.status()).toBe(302);
    const html = `<meta http-equiv="refresh" content="0;url=${location.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}">`;
    await route.fulfill({ status: 200, contentType: "text/html", body: html });
  });
  await context.route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<p>WhatsApp</p>" }));
  return locations;
}

/**
 * Presses `key` until `arrived` is in the page, and never again once it is. dnd-kit's keyboard
 * sensor starts listening for a picked-up item's arrows one timer tick after the pick-up, and
 * Chromium runs input before timers: an arrow pressed at once can be lost (CI saw it on the board
 * and on the photos). A person presses again; so does the test.
 */
export async function pressUntil(page: Page, key: string, arrived: Locator) {
  await expect(async () => {
    if ((await arrived.count()) === 0) await page.keyboard.press(key);
    await expect(arrived).toBeAttached({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}
