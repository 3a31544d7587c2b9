import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { signInAsAdmin, waitForHydration } from "./helpers";

test.describe.configure({ mode: "serial" });

/** The events of an iCalendar text: lines unfolded, values unescaped. */
function icsEvents(text: string): Record<string, string>[] {
  const events: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of text.replace(/\r?\n[ \t]/g, "").split(/\r?\n/)) {
    if (line === "BEGIN:VEVENT") current = {};
    else if (line === "END:VEVENT" && current) {
      events.push(current);
      current = null;
    } else if (current && line.includes(":")) {
      const colon = line.indexOf(":");
      current[line.slice(0, colon).split(";")[0]] = line.slice(colon + 1).replace(/\\n/gi, "\n").replace(/\\([,;\\])/g, "$1");
    }
  }
  return events;
}

/** axe-core (WCAG 2 A/AA), as tests/e2e/accessibility.spec.ts checks the other screens. */
async function expectNoViolations(page: Page, context: string) {
  // Toasts and dialogs fade in: measure contrast once they are fully drawn.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((violation) => `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).slice(0, 3).join(", ")}`);
  expect(summary, context).toEqual([]);
}

test.describe("the visits agenda", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("schedule from a lead's link, see it under its day, download its .ics, mark it done", async ({ page }) => {
    await signInAsAdmin(page);
    const name = `Visitante Agenda ${Date.now()}`;
    const created = await page.request.post("/crm/leads", {
      data: { intent: "create", values: { full_name: name, phone: "(84) 98888-1234", interest_type: "comprar", origin: "site", status: "novo" } },
    });
    expect(created.ok()).toBe(true);

    // The lead's id, as the lead page's 'Agendar visita' button would put it in the link.
    await page.goto("/crm/visitas");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Agendar visita" }).click();
    const dialog = page.getByRole("dialog", { name: "Agendar visita" });
    await dialog.getByLabel("Buscar lead (nome, telefone ou email)").fill(name);
    const option = dialog.getByLabel("Lead", { exact: true }).locator("option", { hasText: name });
    await expect(option).toHaveCount(1);
    const leadId = await option.getAttribute("value");
    expect(leadId).toMatch(/^[0-9a-f-]{36}$/);
    await page.keyboard.press("Escape");

    await page.goto(`/crm/visitas?lead=${leadId}`);
    await waitForHydration(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Lead", { exact: true })).toHaveValue(leadId!);
    // Tomorrow at 10:30 in Natal (UTC−3) is 13:30 UTC.
    const tomorrow = new Date(Date.now() + 86_400_000 - 3 * 3_600_000).toISOString().slice(0, 10);
    await dialog.getByLabel("Data e hora").fill(`${tomorrow}T10:30`);
    await dialog.getByLabel("Observações (opcional)").fill("Confirmar por WhatsApp na véspera");
    await dialog.getByRole("button", { name: "Agendar visita" }).click();
    await expect(page.getByText("Visita agendada!").first()).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/crm\/visitas$/);

    const day = page.getByTestId(`visit-day-${tomorrow}`);
    await expect(day.getByRole("heading")).toContainText("Amanhã");
    const item = day.getByTestId("visit-item").filter({ hasText: name });
    await expect(item).toContainText("10:30");
    await expect(item).toContainText("Confirmar por WhatsApp na véspera");
    await expect(item.getByRole("link", { name, exact: true })).toHaveAttribute("href", `/crm/leads/${leadId}`);
    await expect(item.getByRole("link", { name: /98888-1234/ })).toHaveAttribute("href", "tel:+5584988881234");

    const downloading = page.waitForEvent("download");
    await item.getByRole("link", { name: /Baixar \.ics/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`visita-${tomorrow}-1030.ics`);
    const events = icsEvents(fs.readFileSync((await download.path())!, "utf8"));
    expect(events).toHaveLength(1);
    expect(events[0].DTSTART).toBe(`${tomorrow.replace(/-/g, "")}T133000Z`);
    expect(events[0].SUMMARY).toBe(`Visita: imóvel a definir — ${name}`);
    expect(events[0].DESCRIPTION).toContain("Telefone: (84) 98888-1234");
    expect(events[0].DESCRIPTION).toContain(`/crm/leads/${leadId}`);

    await item.getByRole("button", { name: /^Realizada:/ }).click();
    await expect(page.getByText("Visita marcada como realizada.").first()).toBeVisible();
    await expect(page.getByTestId("visit-item").filter({ hasText: name })).toHaveCount(0);

    await page.getByRole("link", { name: /Todas/ }).click();
    await expect(page).toHaveURL(/mostrar=todas/);
    await expect(page.getByTestId("visit-item").filter({ hasText: name })).toContainText("Realizada");
  });

  test("'Agenda no celular' shows a new feed URL once, and the URL serves the visits", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/crm/visitas");
    await waitForHydration(page);
    const create = page.getByRole("button", { name: "Criar endereço da agenda" });
    const regenerate = page.getByRole("button", { name: "Gerar novo endereço" });
    if (await regenerate.isVisible()) {
      await regenerate.click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Gerar novo endereço" }).click();
    } else {
      await create.click();
    }
    const field = page.getByLabel("Endereço da sua agenda");
    await expect(field).toHaveValue(/\/calendario\/[A-Za-z0-9_-]{43}\.ics$/);
    const url = await field.inputValue();
    // A calendar app sends no cookie: a fresh request context has none.
    const feed = await page.context().request.fetch(url.replace(/^https?:\/\/[^/]+/, ""), { headers: { cookie: "" } });
    expect(feed.status()).toBe(200);
    expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(await feed.text()).toContain("BEGIN:VCALENDAR");

    // Gone after a reload: only the hash is stored.
    await page.reload();
    await expect(page.getByLabel("Endereço da sua agenda")).toHaveCount(0);
    await expect(page.getByText(/Endereço ativo/)).toBeVisible();
  });

  for (const width of [390, 1280]) {
    test(`the agenda, its dialog and the feed panel pass axe at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      // The history shows the visit marked done above (with 'Reabrir'), and the feed made above.
      await page.goto("/crm/visitas?mostrar=todas");
      await waitForHydration(page);
      await expect(page.getByTestId("visit-item").first()).toBeVisible();
      await expectNoViolations(page, "agenda");
      await page.getByRole("button", { name: "Agendar visita" }).click();
      await expect(page.getByRole("dialog", { name: "Agendar visita" })).toBeVisible();
      await expectNoViolations(page, "schedule dialog");
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Gerar novo endereço" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Gerar novo endereço" }).click();
      await expect(page.getByLabel("Endereço da sua agenda")).toBeVisible();
      await expectNoViolations(page, "feed URL");
    });
  }
});
