import zlib from "node:zlib";
import { type APIRequestContext, expect, test } from "@playwright/test";

/**
 * The JavaScript budget of public pages (docs/decisions/003-javascript-budget.md): what the
 * server's HTML makes a browser download before anyone touches the page, gzipped, at most
 * 120 KB, and never a byte of the CRM. Sizes are deterministic for a build, so this is a test;
 * load times are measured in `npm run bench`, not here.
 */
export const PUBLIC_JS_BUDGET = 120 * 1024;

async function shippedScripts(request: APIRequestContext, path: string) {
  const html = await (await request.get(path)).text();
  const files = new Set<string>();
  for (const match of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/assets\/[^"]+\.js)"/g)) files.add(match[1]);
  for (const match of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/assets\/[^"]+\.js)"/g)) files.add(match[1]);
  let gzipped = 0;
  for (const file of files) {
    const body = await (await request.get(file, { headers: { "Accept-Encoding": "identity" } })).body();
    gzipped += zlib.gzipSync(body, { level: 9 }).length;
  }
  return { files: [...files], gzipped };
}

const PUBLIC_PAGES = ["/", "/imoveis", "/imoveis?tipo=casa&quartos=3", "/sobre", "/contato", "/privacidade", "/agendar-visita", "/auth", "/pagina-que-nao-existe"];

for (const path of PUBLIC_PAGES) {
  test(`${path} ships at most 120 KB of gzipped JavaScript and none of the CRM`, async ({ request }) => {
    const { files, gzipped } = await shippedScripts(request, path);
    test.info().annotations.push({ type: "js-gzip-bytes", description: `${path}: ${gzipped}` });
    expect(files.length).toBeGreaterThan(0);
    expect(gzipped).toBeLessThanOrEqual(PUBLIC_JS_BUDGET);
    for (const file of files) expect(file).not.toMatch(/crm-/);
  });
}

test("a property page ships at most 120 KB of gzipped JavaScript and none of the CRM", async ({ request }) => {
  const list = await (await request.get("/imoveis")).text();
  const path = /href="(\/imoveis\/[0-9a-f-]{36})"/.exec(list)![1];
  const { files, gzipped } = await shippedScripts(request, path);
  test.info().annotations.push({ type: "js-gzip-bytes", description: `${path}: ${gzipped}` });
  expect(gzipped).toBeLessThanOrEqual(PUBLIC_JS_BUDGET);
  for (const file of files) expect(file).not.toMatch(/crm-/);
});

test("public pages hydrate without console errors", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  for (const path of ["/", "/imoveis", "/sobre", "/contato"]) {
    await page.goto(path);
    await page.waitForLoadState("load");
  }
  expect(errors).toEqual([]);
});
