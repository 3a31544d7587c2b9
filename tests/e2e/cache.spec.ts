import crypto from "node:crypto";
import zlib from "node:zlib";
import { expect, test } from "@playwright/test";
import { type ServerProcess, startServerOnOwnDatabase, withClient } from "../helpers/server-process";
import { waitForHydration } from "./helpers";
import { TEMPLATE_DIR } from "./template";

/**
 * The public page cache (server/page-cache.ts, docs/decisions/006) on the production build in a
 * child process, as visitors and the broker meet it:
 * - a listing edited through the CRM shows on the very next request to /, /imoveis and its page;
 *   on PostgreSQL, one changed by another connection (a SQL console) too, once this process
 *   has heard the change (the /api/events stream says so);
 * - a signed-in request is never answered from the cache nor stored in it; no cached answer sets
 *   a cookie;
 * - compressed copies, ETag and 304, Vary;
 * - N concurrent misses render once (counted from the server's own "app render" lines, one per
 *   call into React Router);
 * - cached pages carry a CSP listing the hashes of exactly their inline scripts: a browser finds
 *   no violation and the pages hydrate and work.
 */
const PORT = 3500;
const ORIGIN = `http://localhost:${PORT}`;
const ADMIN = { email: "admin@cache.test", password: "senha-do-cache-1" };

let server: ServerProcess;
let databaseUrl: string | undefined;
let stopServer: () => Promise<void>;
let adminCookie: string;

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // Debug lines include one "app render" per call into React Router: the honest render count.
  const env: Record<string, string> = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "debug" };
  ({ server, databaseUrl, stop: stopServer } = await startServerOnOwnDatabase({ port: PORT, label: "cache", env, templateDir: TEMPLATE_DIR }));
  adminCookie = await signIn();
});

test.afterAll(async () => {
  await stopServer?.();
});

async function signIn(): Promise<string> {
  const response = await fetch(`${ORIGIN}/auth`, {
    method: "POST",
    headers: { Origin: ORIGIN },
    body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }),
    redirect: "manual",
  });
  expect(response.status, await response.clone().text()).toBe(302);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** A GET as a browser sends it; the body decoded whatever the encoding. */
async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${ORIGIN}${path}`, { headers: { "Accept-Encoding": "br, gzip", ...headers }, redirect: "manual" });
  return { response, text: await response.text() };
}

/** Raw bytes as sent (fetch would decode them), to check the encoding itself. */
async function getRaw(path: string, acceptEncoding: string): Promise<{ headers: Headers; bytes: Buffer }> {
  const http = await import("node:http");
  return new Promise((resolve, reject) => {
    http
      .get(`${ORIGIN}${path}`, { headers: { "Accept-Encoding": acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === "string") headers.set(name, value);
          resolve({ headers, bytes: Buffer.concat(chunks) });
        });
      })
      .on("error", reject);
  });
}

/** Posts to a CRM action as its page does (JSON, same origin, signed in). */
async function crm(json: unknown) {
  const response = await fetch(`${ORIGIN}/crm/imoveis.data`, {
    method: "POST",
    headers: { Origin: ORIGIN, Cookie: adminCookie, "Content-Type": "application/json" },
    body: JSON.stringify(json),
    redirect: "manual",
  });
  expect(response.status, await response.clone().text()).toBeLessThan(400);
  return response.text();
}

const listing = (title: string) => ({
  codigo: `CACHE-${crypto.randomBytes(3).toString("hex")}`,
  title,
  description: "Casa térrea com quintal, perto da praia, para o teste do cache.",
  type: "casa",
  purpose: "venda",
  status: "disponivel",
  featured: true,
  price: "910.000,00",
  area: "180",
  bedrooms: "3",
  bathrooms: "2",
  parking_spaces: "2",
  neighborhood: "Ponta Negra",
  city: "Natal",
  state: "RN",
  broker_partner: "",
  images: [] as string[],
});

/** The id of the listing with this title, from the public list's links. */
async function idOf(title: string): Promise<string> {
  const { text } = await get("/imoveis");
  const at = text.indexOf(title);
  expect(at, `${title} not on /imoveis`).toBeGreaterThan(-1);
  const links = [...text.slice(0, at).matchAll(/\/imoveis\/([0-9a-f-]{36})/g)];
  return links.at(-1)![1];
}

/**
 * Warms /, /imoveis and a page (so that a stale copy would be served if invalidation failed).
 * Until a copy is kept: after a CRM write this process also hears its own change come back
 * through the database a moment later (on PostgreSQL, another connection) and drops the cache
 * once more; a loaded machine can deliver that between two requests.
 */
async function warm(paths: string[]) {
  for (const path of paths) {
    await expect.poll(async () => (await get(path)).response.headers.get("x-cache"), { message: path }).toBe("HIT");
  }
}

/** Runs `write` and returns once this process has heard the change (its event stream says so). */
async function untilHeard(write: () => Promise<unknown>) {
  const controller = new AbortController();
  const stream = await fetch(`${ORIGIN}/api/events`, { signal: controller.signal });
  const reader = stream.body!.getReader();
  let received = "";
  const heard = (async () => {
    while (!/event: change/.test(received)) {
      const { value, done } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 200));
  await write();
  await heard;
  controller.abort();
}

test("a listing created and edited through the CRM shows on the next request to /, /imoveis and its page", async () => {
  const first = `Casa do cache ${crypto.randomBytes(3).toString("hex")}`;
  await warm(["/", "/imoveis"]);
  const values = listing(first);
  await crm({ intent: "create", values });
  for (const path of ["/", "/imoveis"]) expect((await get(path)).text, path).toContain(first);

  const id = await idOf(first);
  await warm(["/", "/imoveis", `/imoveis/${id}`]);
  const second = `Casa do cache editada ${crypto.randomBytes(3).toString("hex")}`;
  await crm({ intent: "update", id, values: { ...values, title: second } });
  for (const path of ["/", "/imoveis", `/imoveis/${id}`]) {
    const { text } = await get(path);
    expect(text, path).toContain(second);
    expect(text, path).not.toContain(first);
  }
  // And the page's data request, as a client-side navigation asks for it.
  expect((await get(`/imoveis/${id}.data`)).text).toContain(second);
});

test("a listing changed by another connection shows once this process has heard it (PostgreSQL)", async () => {
  test.skip(!databaseUrl, "needs TEST_DATABASE_URL: the embedded database has one process");
  const title = `Casa do console ${crypto.randomBytes(3).toString("hex")}`;
  const before = `Casa antes do console ${crypto.randomBytes(3).toString("hex")}`;
  await crm({ intent: "create", values: listing(before) });
  const id = await idOf(before);
  await warm(["/", "/imoveis", `/imoveis/${id}`]);

  // The server's own event stream says when this process heard the change.
  await untilHeard(() => withClient(databaseUrl!, (client) => client.query("update properties set title = $1 where id = $2", [title, id])));
  for (const path of ["/", "/imoveis", `/imoveis/${id}`]) expect((await get(path)).text, path).toContain(title);
});

test("signed-in requests are neither answered from nor stored in the cache; no cached answer sets a cookie", async () => {
  await warm(["/sobre"]);
  const signedIn = await get("/sobre", { Cookie: adminCookie });
  expect(signedIn.response.headers.get("x-cache")).toBeNull();
  expect(signedIn.response.headers.get("cache-control")).toBe("no-store");
  expect(signedIn.response.headers.get("etag")).toBeNull();

  // A change empties the cache; the signed-in visit comes first and must not be what is stored.
  const values = listing(`Casa invisível ${crypto.randomBytes(3).toString("hex")}`);
  await crm({ intent: "create", values });
  const first = await get("/privacidade", { Cookie: adminCookie });
  expect(first.response.headers.get("x-cache")).toBeNull();
  const anonymous = await get("/privacidade");
  expect(anonymous.response.headers.get("x-cache")).toBe("MISS");

  for (const path of ["/", "/imoveis", "/sobre", "/contato", "/agendar-visita", "/privacidade", "/pagina-que-nao-existe", "/_root.data", "/imoveis.data"]) {
    const { response } = await get(path);
    expect(response.headers.get("x-cache"), path).toMatch(/^(HIT|MISS|SHARED)$/);
    expect(response.headers.getSetCookie(), path).toEqual([]);
  }
  // A cookie the app does not read (say, a browser extension's) changes nothing: such requests
  // are answered from the cache (polled: the change above may still come back and empty it once).
  await expect.poll(async () => (await get("/sobre", { Cookie: "tema=escuro" })).response.headers.get("x-cache")).toBe("HIT");
  // The CRM and sign-in are never cached.
  for (const path of ["/auth", "/crm", "/healthz"]) expect((await get(path)).response.headers.get("x-cache"), path).toBeNull();
});

test("cached answers: compressed once, ETag and 304, Vary, short browser caching, 404 kept as 404", async () => {
  await warm(["/"]);
  const br = await getRaw("/", "gzip, deflate, br");
  expect(br.headers.get("content-encoding")).toBe("br");
  const html = zlib.brotliDecompressSync(br.bytes).toString();
  expect(html).toContain("<!DOCTYPE html>");
  const gz = await getRaw("/", "gzip");
  expect(gz.headers.get("content-encoding")).toBe("gzip");
  expect(zlib.gunzipSync(gz.bytes).toString()).toBe(html);
  const plain = await getRaw("/", "identity");
  expect(plain.headers.get("content-encoding")).toBeNull();
  expect(plain.bytes.toString()).toBe(html);
  for (const answer of [br, gz, plain]) {
    expect(answer.headers.get("vary")).toContain("Accept-Encoding");
    expect(answer.headers.get("cache-control")).toBe("no-cache");
    expect(answer.headers.get("etag")).toBe(br.headers.get("etag"));
  }

  const etag = br.headers.get("etag")!;
  const revalidated = await fetch(`${ORIGIN}/`, { headers: { "If-None-Match": etag } });
  expect(revalidated.status).toBe(304);
  expect(revalidated.headers.get("etag")).toBe(etag);
  expect((await fetch(`${ORIGIN}/`, { headers: { "If-None-Match": 'W/"outro"' } })).status).toBe(200);

  const missing = await get("/pagina-que-nao-existe");
  expect(missing.response.status).toBe(404);
  expect((await get("/pagina-que-nao-existe")).response.headers.get("x-cache")).toBe("HIT");
  expect((await get("/pagina-que-nao-existe")).response.status).toBe(404);
});

test("concurrent misses for one page render it once", async () => {
  // A change empties the cache (heard back too, so it cannot empty it again mid-test); then 20
  // visitors ask for the same, never-seen variant at once.
  await untilHeard(() => crm({ intent: "create", values: listing(`Casa do single flight ${crypto.randomBytes(3).toString("hex")}`) }));
  const query = `?tipo=casa&finalidade=venda&quartos=${crypto.randomInt(1, 4)}&bairro=${crypto.randomBytes(3).toString("hex")}`;
  const rendersBefore = renderCount("/imoveis");
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => get(`/imoveis${query}&utm_source=grupo-${i}`)),
  );
  // The log line is written before the render: wait until the output has caught up.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(renderCount("/imoveis") - rendersBefore).toBe(1);
  expect(answers.map((answer) => answer.response.status)).toEqual(Array(20).fill(200));
  const states = answers.map((answer) => answer.response.headers.get("x-cache"));
  expect(states.filter((state) => state === "MISS")).toHaveLength(1);
  expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
});

function renderCount(path: string): number {
  return server
    .output()
    .split("\n")
    .filter((line) => line.includes('"app render"') && line.includes(`"path":"${path}"`)).length;
}

test("cached pages carry the hashes of exactly their inline scripts: no CSP violation, the pages hydrate and work", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });

  const { text } = await get("/imoveis");
  const id = [...text.matchAll(/\/imoveis\/([0-9a-f-]{36})/g)][0][1];
  for (const path of ["/", "/imoveis", `/imoveis/${id}`]) {
    await get(path); // make sure the browser's visit is answered from the cache
    const response = await page.goto(`${ORIGIN}${path}`);
    expect(response!.headers()["x-cache"], path).toBe("HIT");
    const csp = response!.headers()["content-security-policy"];
    expect(csp).not.toContain("unsafe-inline' 'self'");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|nonce-)/);
    const html = await response!.text();
    expect(html).not.toContain("nonce=");
    const hashes = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes]) => !/src=|application\/ld\+json/.test(attributes))
      .map(([, , content]) => `'sha256-${crypto.createHash("sha256").update(content).digest("base64")}'`);
    expect(hashes.length, path).toBeGreaterThan(0);
    const allowed = csp.match(/script-src ([^;]*)/)![1].split(" ").filter((source) => source.startsWith("'sha256-"));
    expect(allowed.sort(), path).toEqual([...new Set(hashes)].sort());
    await waitForHydration(page);
  }

  // Hydrated and working: the property page's gallery, then a filter on the list.
  const gallery = page.getByRole("region", { name: /Fotos de/ });
  const counter = gallery.getByText(/^\d+ \/ \d+$/);
  if (await counter.count()) {
    const before = await counter.textContent();
    await gallery.getByRole("button", { name: "Próxima foto" }).click();
    await expect(counter).not.toHaveText(before!);
  }
  await page.goto(`${ORIGIN}/imoveis`);
  await waitForHydration(page);
  await page.getByLabel("Tipo", { exact: true }).selectOption("casa");
  await expect(page).toHaveURL(/tipo=casa/);
  await expect(page.getByRole("article").first()).toBeVisible();
  expect(problems).toEqual([]);
});
