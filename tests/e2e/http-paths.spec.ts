import crypto from "node:crypto";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { type ServerProcess, startServerOnOwnDatabase } from "../helpers/server-process";
import { TEMPLATE_DIR } from "./template";

/**
 * How the HTTP server (server/app.ts) reads a request's path and method (issue 21, findings 4
 * and 21), on the production build in a child process:
 * - React Router matches /SOBRE, /s%6Fbre and /sobre/ as /sobre: each other spelling of a page is
 *   sent to the page's one address (301), so it never becomes a page cache entry of its own (which
 *   escaped the per-path bounds and pushed the real pages out), and /CRM or /Auth never escape
 *   the no-store and log rules written for /crm and /auth; `.data` requests and writes are
 *   answered as for the one address;
 * - names where case matters keep it: photos, build files, the feeds' secret tokens (which the
 *   log never shows, however spelled);
 * - TRACE and other methods the site does not use get 405 with Allow, never 500; React Router's
 *   405 (a POST to a page without a form) gets Allow and is not logged as an error.
 */
const PORT = 3530;
const ORIGIN = `http://localhost:${PORT}`;
const ADMIN = { email: "admin@paths.test", password: "senha-dos-caminhos-1" };
const FEED_TOKEN = "Feed_Token-MixedCase-2026";

let server: ServerProcess;
let stopServer: () => Promise<void>;
let adminCookie: string;

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const env: Record<string, string> = {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "info",
    // Small, so that a few dozen stored variants would push the real pages out.
    PAGE_CACHE_MAX_BYTES: String(1024 * 1024),
    PORTAL_FEED_TOKEN: FEED_TOKEN,
    // On PostgreSQL the server starts on an empty database of its own: the demo listings give
    // the tests a property page (the PGlite template already holds them).
    ...(process.env.TEST_DATABASE_URL ? { SEED_DEMO: "true" } : {}),
  };
  ({ server, stop: stopServer } = await startServerOnOwnDatabase({ port: PORT, label: "paths", env, templateDir: TEMPLATE_DIR }));
  const signIn = await fetch(`${ORIGIN}/auth`, {
    method: "POST",
    headers: { Origin: ORIGIN },
    body: new URLSearchParams(ADMIN),
    redirect: "manual",
  });
  expect(signIn.status, await signIn.clone().text()).toBe(302);
  adminCookie = signIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
});

test.afterAll(async () => {
  await stopServer?.();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A request exactly as written: any method (fetch refuses TRACE), the path byte for byte. */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: PORT, method, path, headers: { Host: `localhost:${PORT}`, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

const get = (path: string, headers: Record<string, string> = {}) => send("GET", path, headers);

/** The log lines written since `from` (an offset in the server's output), parsed. */
function logSince(from: number): Record<string, unknown>[] {
  return server
    .output()
    .slice(from)
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * A listing's id, from the public list's links. Asked until the list answers: on a busy machine
 * the server's first page requests after start-up may be shed with 503 while the database warms.
 */
async function someListingId(): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(async () => {
      const list = await get("/imoveis");
      id = /\/imoveis\/([0-9a-f-]{36})/.exec(list.body)?.[1];
      return id ? "listing found" : `status ${list.status}, no listing link`;
    }, { timeout: 30_000 })
    .toBe("listing found");
  return id!;
}

test("a page's other spellings are sent to its one address (301), with the query string as it came", async () => {
  const id = await someListingId();
  const cases: [string, string][] = [
    ["/SOBRE", "/sobre"],
    ["/SoBrE", "/sobre"],
    ["/s%6Fbre", "/sobre"],
    ["/S%6fBRE/", "/sobre"],
    ["/sobre/", "/sobre"],
    ["/sobre//", "/sobre"],
    ["/Imoveis?tipo=casa&bairro=Ponta%20Negra", "/imoveis?tipo=casa&bairro=Ponta%20Negra"],
    ["/CONTATO?utm_source=Grupo-Da-Praia", "/contato?utm_source=Grupo-Da-Praia"],
    [`/imoveis/${id.toUpperCase()}`, `/imoveis/${id}`],
    [`/IMOVEIS/${id}?foto=2`, `/imoveis/${id}?foto=2`],
    ["/CRM", "/crm"],
    ["/Auth?modo=cadastro", "/auth?modo=cadastro"],
    ["/FAVORITOS?ids=A,B", "/favoritos?ids=A,B"],
    // Never another host: a Location of //evil.example would be one.
    ["//evil.example/", "/evil.example"],
  ];
  for (const [path, canonical] of cases) {
    if (path === canonical) continue;
    for (const method of ["GET", "HEAD"]) {
      const answer = await send(method, path);
      expect(answer.status, `${method} ${path}`).toBe(301);
      expect(answer.headers.location, `${method} ${path}`).toBe(canonical);
      expect(answer.headers["x-cache"], `${method} ${path}`).toBeUndefined();
    }
  }
  // The one address itself is answered, not redirected.
  for (const path of ["/sobre", "/imoveis?tipo=casa&bairro=Ponta%20Negra", `/imoveis/${id}`, "/contato?utm_source=Grupo-Da-Praia"]) {
    expect((await get(path)).status, path).toBe(200);
  }
  // An escaped slash is no slash: that path is a page of its own (not found), not a redirect.
  expect((await get("/%2Fevil.example")).status).toBe(404);
});

test("other spellings never reach the page cache, so they cannot push the real pages out", async () => {
  await get("/sobre");
  expect((await get("/sobre")).headers["x-cache"]).toBe("HIT");
  // Each spelling with its own query string: before, each was an entry of its own.
  const spell = (i: number) => (i % 2 ? `/imov%65is` : `/${[..."imoveis"].map((char, at) => (at === i % 7 || crypto.randomInt(2) ? char.toUpperCase() : char)).join("")}`);
  for (let i = 0; i < 40; i++) {
    const spelling = spell(i);
    const answer = await get(`${spelling}?pagina=${i}&tipo=casa`);
    expect(answer.status, spelling).toBe(301);
    expect(answer.headers["x-cache"], spelling).toBeUndefined();
  }
  expect((await get("/sobre")).headers["x-cache"]).toBe("HIT");

  // A .data request of another spelling is the one address's data: the same entry.
  const data = await get("/sobre.data");
  expect(data.status).toBe(200);
  const other = await get("/SoBre.data");
  expect(other.status).toBe(200);
  expect(other.headers["x-cache"]).toBe("HIT");
  expect(other.body).toBe(data.body);
});

test("the CRM and sign-in, however spelled, are never cached nor stored", async () => {
  for (const path of ["/CRM", "/Crm/Leads", "/Auth", "/AUTH/esqueci"]) {
    const answer = await get(path);
    expect(answer.status, path).toBe(301);
    expect(answer.headers["cache-control"], path).toBe("no-store");
  }
  for (const [path, canonical] of [["/Auth.data", "/auth.data"], ["/CRM.data", "/crm.data"], ["/Crm/Leads.data", "/crm/leads.data"]]) {
    const answer = await get(path);
    const expected = await get(canonical);
    expect(answer.status, path).toBe(expected.status);
    expect(answer.headers["cache-control"], path).toBe("no-store");
    expect(answer.headers["x-cache"], path).toBeUndefined();
  }
  // Signed in, the CRM's data under another spelling is the CRM's data, private as ever.
  const signedIn = await get("/Crm/Leads.data", { Cookie: adminCookie });
  expect(signedIn.status).toBe(200);
  expect(signedIn.headers["cache-control"]).toBe("no-store");
  // And a write under another spelling is the write, with the same checks.
  const foreign = await send("POST", "/CRM/Leads", { Origin: "https://site-malicioso.example", Cookie: adminCookie, "Content-Type": "application/json" }, "{}");
  expect(foreign.status).toBe(403);
});

test("names where case matters keep it: photos, build files, the feeds' tokens; the log never shows a token", async () => {
  const logFrom = server.output().length;
  const home = (await get("/")).body;
  const photo = /\/media\/[^"'\s?]+\.webp/.exec(home)![0];
  const asset = /\/assets\/[\w.-]+\.js/.exec(home)![0];
  for (const path of [photo, asset]) {
    const answer = await get(path);
    expect(answer.status, path).toBe(200);
    expect(answer.headers["cache-control"], path).toMatch(/immutable/);
  }
  expect((await get(photo.replace("/media/", "/MEDIA/"))).headers.location).toBe(photo);
  expect((await get(asset.replace("/assets/", "/Assets/"))).headers.location).toBe(asset);

  // The listings feed: its token is its key, with its case.
  const feed = `/feeds/vrsync/${FEED_TOKEN}.xml`;
  expect((await get(feed)).status).toBe(200);
  expect((await get(`/FEEDS/VRSYNC/${FEED_TOKEN}.xml`)).headers.location).toBe(feed);
  expect((await get(feed.toLowerCase())).status).toBe(404);

  // A calendar feed, made through the CRM as a broker does.
  const made = await fetch(`${ORIGIN}/crm/visitas.data`, {
    method: "POST",
    headers: { Origin: ORIGIN, Cookie: adminCookie, "Content-Type": "application/json" },
    body: JSON.stringify({ intent: "feed" }),
  });
  const token = /\/calendario\/([A-Za-z0-9_-]{43})\.ics/.exec(await made.text())![1];
  const calendar = `/calendario/${token}.ics`;
  expect((await get(calendar)).status).toBe(200);
  expect((await get(`/CALENDARIO/${token}.ics`)).headers.location).toBe(calendar);
  expect((await get(`/Calendario/${token.toLowerCase()}.ics`)).status).toBe(301);
  expect((await get(`/calendario/${token.toLowerCase()}.ics`)).status).toBe(404);

  await expect.poll(() => logSince(logFrom).filter((line) => line.path === "/calendario/[token]").length).toBe(4);
  const log = server.output().slice(logFrom);
  expect(log).not.toContain(FEED_TOKEN);
  expect(log).not.toContain(FEED_TOKEN.toLowerCase());
  expect(log).not.toContain(token);
  expect(log).not.toContain(token.toLowerCase());
  expect(logSince(logFrom).filter((line) => line.path === "/feeds/vrsync/[token]")).toHaveLength(3);
});

test("methods the site does not use get 405 with Allow, never 500; a POST to a page gets 405 with Allow and no error in the log", async () => {
  const logFrom = server.output().length;
  for (const method of ["TRACE", "PROPFIND", "OPTIONS", "PUT", "DELETE", "PATCH"]) {
    for (const path of ["/", "/sobre", "/crm/leads", "/api/portais/leads", "/media/x/800.webp", "/assets/nada.js"]) {
      const answer = await send(method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow, `${method} ${path}`).toBe("GET, HEAD, POST");
      expect(answer.body, `${method} ${path}`).toBe("Método não permitido.");
    }
  }
  // React Router's own 405s: a page or a resource without a form to post to.
  for (const path of ["/sobre", "/sobre.data", "/imoveis", "/sitemap.xml", "/healthz", "/calendario/x.ics"]) {
    const answer = await send("POST", path, { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" }, "a=b");
    expect(answer.status, `POST ${path}`).toBe(405);
    expect(answer.headers.allow, `POST ${path}`).toBe("GET, HEAD");
    if (!path.endsWith(".data") && !["/sobre", "/imoveis"].includes(path)) expect(answer.body, `POST ${path}`).toBe("Método não permitido.");
  }
  // A resource that only takes posts says so itself.
  const upload = await get("/crm/midia");
  expect(upload.status).toBe(405);
  expect(upload.headers.allow).toBe("POST");
  expect(upload.body).toBe("Método não permitido: envie a foto com POST.");

  await expect.poll(() => logSince(logFrom).filter((line) => line.msg === "request" && line.status === 405).length).toBe(6 * 6 + 6 + 1);
  const lines = logSince(logFrom);
  expect(lines.filter((line) => line.level === "error" || line.level === "fatal")).toEqual([]);
  expect(server.output().slice(logFrom)).not.toContain("x.ics");
});
