import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { expectFitsWindow, signInAsAdmin, waitForHydration } from "./helpers";

/**
 * The visits calendar (/crm/visitas?vista=semana): the week shows the same visits as the list,
 * a visit dragged to another day is saved there, clashes are marked, and the page passes axe at
 * phone and desktop widths. The visits go some 600 days ahead, a week nobody else uses, so the
 * full list ('Todas', latest first) has them on its first page.
 */

test.describe.configure({ mode: "serial" });

const SHOTS = path.resolve(".tmp/screenshots");
const DAY_MS = 86_400_000;
/** A broker day ("2028-07-19"), `days` from today (Natal is UTC−3). */
const brokerDayIn = (days: number) => new Date(Date.now() + days * DAY_MS - 3 * 3_600_000).toISOString().slice(0, 10);
const plusDays = (day: string, days: number) => new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
// A Wednesday, so the next two days are in the same (Sunday-first) week.
const base = brokerDayIn(600);
const WEDNESDAY = plusDays(base, (3 - new Date(`${base}T12:00:00Z`).getUTCDay() + 7) % 7);
const THURSDAY = plusDays(WEDNESDAY, 1);
const FRIDAY = plusDays(WEDNESDAY, 2);
const stamp = Date.now();
const NAMES = { first: `Calendário Um ${stamp}`, second: `Calendário Dois ${stamp}`, clash: `Calendário Três ${stamp}` };

async function expectNoViolations(page: Page, context: string) {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(summary, context).toEqual([]);
}

/** Creates a lead and reads its id from the schedule dialog's picker, as the broker would pick it. */
async function leadIdOf(page: Page, name: string): Promise<string> {
  const created = await page.request.post("/crm/leads", {
    data: { intent: "create", values: { full_name: name, phone: "(84) 98888-4321", interest_type: "comprar", origin: "site", status: "novo" } },
  });
  expect(created.ok()).toBe(true);
  await page.goto("/crm/visitas");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Agendar visita" }).click();
  const dialog = page.getByRole("dialog", { name: "Agendar visita" });
  await dialog.getByLabel("Buscar lead (nome, telefone ou email)").fill(name);
  const option = dialog.getByLabel("Lead", { exact: true }).locator("option", { hasText: name });
  await expect(option).toHaveCount(1);
  const id = (await option.getAttribute("value"))!;
  await page.keyboard.press("Escape");
  return id;
}

async function schedule(page: Page, leadId: string, when: string) {
  const response = await page.request.post("/crm/visitas", { data: { intent: "create", values: { lead_id: leadId, scheduled_at: when } } });
  expect(response.ok()).toBe(true);
}

/** "Name às 10:30" of every visit a list's day offers to edit. */
async function listKeys(region: Locator): Promise<string[]> {
  const labels = await region.getByRole("button", { name: /^Editar visita de / }).evaluateAll((nodes) => nodes.map((node) => node.getAttribute("aria-label") ?? ""));
  return labels.map((label) => /^Editar visita de (.+) às (\d\d:\d\d)/.exec(label)!.slice(1).join(" às ")).sort();
}

/** The same for a calendar day's chips. */
async function calendarKeys(region: Locator): Promise<string[]> {
  const keys = await region
    .getByTestId("calendar-visit")
    .evaluateAll((nodes) => nodes.map((node) => `${node.querySelector("[data-lead-name]")?.textContent} às ${node.querySelector("time")?.textContent}`));
  return keys.sort();
}

test.describe("the visits calendar", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the week shows the list's visits, marks a clash, and a dragged visit is saved on its new day", async ({ page }) => {
    await signInAsAdmin(page);
    const first = await leadIdOf(page, NAMES.first);
    const second = await leadIdOf(page, NAMES.second);
    const clash = await leadIdOf(page, NAMES.clash);
    await schedule(page, first, `${WEDNESDAY}T09:00`);
    await schedule(page, second, `${THURSDAY}T11:00`);
    await schedule(page, clash, `${WEDNESDAY}T09:30`);
    // 'Próximo contato' with the first lead on Thursday afternoon: a reminder chip in the week.
    const reminder = await page.request.post(`/crm/leads/${first}`, { data: { intent: "next_contact", next_contact_at: `${THURSDAY}T16:00` } });
    expect(reminder.ok()).toBe(true);

    const consoleErrors: string[] = [];
    page.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
    await page.goto(`/crm/visitas?vista=semana&data=${WEDNESDAY}`);
    await waitForHydration(page);
    // Server-rendered, then hydrated with dnd-kit: the two must agree (no hydration warning).
    expect(consoleErrors).toEqual([]);
    const calendar = page.getByTestId("visit-calendar");
    const days = await calendar.locator("[data-testid^=calendar-day-]").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-testid")!.slice("calendar-day-".length)));
    expect(days).toHaveLength(7);
    expect(days).toContain(WEDNESDAY);
    const weekKeys: Record<string, string[]> = {};
    for (const day of days) weekKeys[day] = await calendarKeys(page.getByTestId(`calendar-day-${day}`));
    expect(weekKeys[WEDNESDAY]).toEqual([`${NAMES.first} às 09:00`, `${NAMES.clash} às 09:30`].sort());

    const call = page.getByTestId(`calendar-day-${THURSDAY}`).getByTestId("calendar-reminder");
    await expect(call).toHaveText(/16:00\s*Ligar para Calendário/);
    await expect(call).toHaveAttribute("href", `/crm/leads/${first}`);

    // The two visits half an hour apart, both scheduled by the admin: marked, not refused.
    const wednesday = page.getByTestId(`calendar-day-${WEDNESDAY}`);
    await expect(wednesday.getByTestId("calendar-visit").filter({ hasText: "Conflito" })).toHaveCount(2);
    await expect(page.getByTestId("calendar-conflicts")).toContainText("2 com conflito de horário");
    await page.screenshot({ path: path.join(SHOTS, "visits-calendar-week-1280.png"), fullPage: true });
    await expectNoViolations(page, "week view at 1280 px");

    await page.goto("/crm/visitas?mostrar=todas");
    const listed: Record<string, string[]> = {};
    for (const day of days) {
      const section = page.getByTestId(`visit-day-${day}`);
      listed[day] = (await section.count()) === 0 ? [] : await listKeys(section);
    }
    expect(weekKeys).toEqual(listed);

    // Drag Thursday's visit onto Friday with the mouse.
    await page.goto(`/crm/visitas?vista=semana&data=${WEDNESDAY}`);
    await waitForHydration(page);
    const chip = page.getByTestId(`calendar-day-${THURSDAY}`).getByTestId("calendar-visit").filter({ hasText: NAMES.second });
    const target = page.getByTestId(`calendar-day-${FRIDAY}`);
    const from = (await chip.boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2, { steps: 3 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
    await page.mouse.up();
    await expect(page.getByText("Visita atualizada!").first()).toBeVisible();
    await expect(target.getByTestId("calendar-visit").filter({ hasText: NAMES.second })).toContainText("11:00");
    await page.reload();
    await page.screenshot({ path: path.join(SHOTS, "visits-calendar-week-1280-after-drag.png"), fullPage: true });
    await expect(page.getByTestId(`calendar-day-${FRIDAY}`).getByTestId("calendar-visit").filter({ hasText: NAMES.second })).toHaveCount(1);
    await expect(page.getByTestId(`calendar-day-${THURSDAY}`).getByTestId("calendar-visit").filter({ hasText: NAMES.second })).toHaveCount(0);
    await page.getByRole("link", { name: "Mês", exact: true }).click();
    await expect(page.getByTestId(`calendar-day-${FRIDAY}`).getByTestId("calendar-visit")).toHaveCount(1);
    await page.screenshot({ path: path.join(SHOTS, "visits-calendar-month-1280.png"), fullPage: true });
    await expectNoViolations(page, "month view at 1280 px");
  });

  test("on a phone the week is a list of days; the month and day views too; axe passes", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsAdmin(page);
    await page.goto(`/crm/visitas?vista=semana&data=${WEDNESDAY}`);
    await waitForHydration(page);
    await expectFitsWindow(page, "week view at 390 px");
    // Stacked: Wednesday's cell spans the page instead of a seventh of it.
    const cell = (await page.getByTestId(`calendar-day-${WEDNESDAY}`).boundingBox())!;
    expect(cell.width).toBeGreaterThan(300);
    await page.screenshot({ path: path.join(SHOTS, "visits-calendar-week-390.png"), fullPage: true });
    await expectNoViolations(page, "week view at 390 px");

    await page.getByRole("link", { name: "Mês", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`vista=mes&data=${WEDNESDAY}`));
    await expect(page.getByTestId(`calendar-day-${WEDNESDAY}`)).toBeVisible();
    await expectFitsWindow(page, "month view at 390 px");
    await page.screenshot({ path: path.join(SHOTS, "visits-calendar-month-390.png"), fullPage: true });
    await expectNoViolations(page, "month view at 390 px");

    // The keyboard reaches a visit and opens its edit dialog (the keyboard's way to reschedule).
    await page.getByRole("link", { name: "Dia", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`vista=dia&data=${WEDNESDAY}`));
    const chip = page.getByRole("button", { name: new RegExp(`^Editar visita: 09:00 ${NAMES.first}`) });
    await chip.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Editar visita" });
    await expect(dialog).toBeVisible();
    // Moved to 09:15, still within the hour of the 09:30 visit: saved, with a warning.
    await dialog.getByLabel("Data e hora").fill(`${WEDNESDAY}T09:15`);
    await dialog.getByRole("button", { name: "Salvar alterações" }).click();
    await expect(page.getByText(/Visita atualizada! Atenção: conflito de horário .* 09:30/).first()).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: new RegExp(`^Editar visita: 09:15 ${NAMES.first}`) })).toBeVisible();
    await expectNoViolations(page, "day view with the clash warning at 390 px");
    await page.screenshot({ path: path.join(SHOTS, "visits-calendar-day-warning-390.png") });
  });
});
