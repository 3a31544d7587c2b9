// Screenshots of pages at phone (390 px) and desktop (1280 px) widths, for looking at what we
// build: node scripts/screenshots.mjs http://localhost:3000 / /imoveis ...  → .tmp/shots/*.png (or SHOT_OUT;
// SHOT_WIDTHS=360,1024 for other widths)
import fs from "node:fs";
import { chromium } from "@playwright/test";

const [base = "http://localhost:3000", ...paths] = process.argv.slice(2);
const out = process.env.SHOT_OUT ?? ".tmp/shots";
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
});
// SHOT_WIDTHS=360,1024 for other widths (default: phone and desktop).
const widths = (process.env.SHOT_WIDTHS ?? "390,1280").split(",").map(Number);
for (const width of widths) {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 800 }, deviceScaleFactor: 1, locale: "pt-BR" });
  const page = await context.newPage();
  // For CRM pages: SHOT_EMAIL / SHOT_PASSWORD sign in first.
  if (process.env.SHOT_EMAIL) {
    await page.goto(base + "/auth");
    await page.getByLabel("Email").fill(process.env.SHOT_EMAIL);
    await page.getByLabel("Senha").fill(process.env.SHOT_PASSWORD ?? "");
    await page.getByRole("button", { name: "Entrar" }).click();
    await page.waitForURL(/\/crm/);
  }
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") console.log(`[${width}] console ${message.type()}: ${message.text()}`);
  });
  for (const pagePath of paths.length ? paths : ["/"]) {
    await page.goto(base + pagePath, { waitUntil: "load" });
    // Scroll to the bottom and back so lazy images load, as they would for a reader.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      window.scrollTo(0, 0);
    });
    await page.waitForTimeout(600);
    const name = `${out}/${(pagePath.replace(/[^a-z0-9]+/gi, "_") || "home").replace(/^_|_$/g, "") || "home"}-${width}.png`;
    await page.screenshot({ path: name, fullPage: true });
    console.log(name);
  }
  await context.close();
}
await browser.close();
