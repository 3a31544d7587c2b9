import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { expect, test } from "@playwright/test";
import pg from "pg";
import sharp from "sharp";
import routes from "../../app/routes";
import { type ServerProcess, startServerOnOwnDatabase, withClient } from "../helpers/server-process";
import { TEMPLATE_DIR } from "./template";

/**
 * What the HTTP server (server/app.ts) does before any route runs, checked on the production
 * build in a child process, as an attacker would meet it (issue 9, findings 4, 5, 6, 7, 9):
 * - a write from a foreign origin is refused with 403 on EVERY route of app/routes.ts, pages
 *   and resource routes alike, and changes nothing in the database;
 * - a forged X-Forwarded-For entry does not reset the lead limit nor the sign-in limit;
 * - a 50 MB body is refused with 413 without the server's memory growing;
 * - signed-in and CRM answers are never cached;
 * - one log line per request with its id, and nothing personal in the log.
 *
 * With TEST_DATABASE_URL the server runs on a PostgreSQL database of its own, which the test
 * reads directly (every table compared); without it, on the embedded database, read through
 * the CRM's own pages.
 */
const PORT = 3301;
const ORIGIN = `http://localhost:${PORT}`;
const ADMIN = { email: "admin@hardening.test", password: "senha-do-hardening-1" };

let server: ServerProcess;
let databaseUrl: string | undefined;
let stopServer: () => Promise<void>;
let adminCookie: string;

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const env: Record<string, string> = {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    TRUST_PROXY: "true",
    TRUST_PROXY_HOPS: "1",
    LEAD_LIMIT_PER_HOUR: "3",
    LOG_LEVEL: "info",
  };
  ({ server, databaseUrl, stop: stopServer } = await startServerOnOwnDatabase({ port: PORT, label: "hardening", env, templateDir: TEMPLATE_DIR }));
  adminCookie = await signIn(ADMIN.email, ADMIN.password, "198.51.100.1");
});

test.afterAll(async () => {
  await stopServer?.();
});

/** Signs in through the real form; returns the session cookie. `address` is the forwarded client. */
async function signIn(email: string, password: string, address: string): Promise<string> {
  const response = await post("/auth", { form: { email, password }, headers: { "X-Forwarded-For": address } });
  expect(response.status, await response.clone().text()).toBe(302);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

type PostOptions = {
  form?: Record<string, string>;
  json?: unknown;
  multipart?: FormData;
  headers?: Record<string, string>;
  cookie?: string;
  method?: string;
  /** Same-origin by default, as our own pages send it. */
  origin?: string | null;
};

function post(path: string, options: PostOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.origin !== null) headers.set("Origin", options.origin ?? ORIGIN);
  if (options.cookie) headers.set("Cookie", options.cookie);
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.json);
  } else if (options.multipart) {
    body = options.multipart;
  } else if (options.form) {
    body = new URLSearchParams(options.form);
  }
  return fetch(`${server.url}${path}`, { method: options.method ?? "POST", headers, body, redirect: "manual" });
}

// ---------------------------------------------------------------------------------------------
// Every route in app/routes.ts, as URLs

type RouteEntry = { path?: string; index?: boolean; file: string; children?: RouteEntry[] };

function routePaths(entries: RouteEntry[], prefix = ""): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const joined = [prefix, entry.path ?? ""].filter(Boolean).join("/");
    const own = entry.children ? [] : [{ path: `/${joined}`, file: entry.file }];
    return [...own, ...routePaths(entry.children ?? [], joined)];
  });
}

const SAMPLE_ID = "0b7f3c2e-1a2b-4c3d-9e8f-001122334455";
const fillParams = (path: string) =>
  path.replace(":id", SAMPLE_ID).replace(":slug", "ponta-negra").replace(":file", "800.webp").replace("*", "pagina-que-nao-existe").replace(/\/$/, "") || "/";

const ALL_ROUTES = routePaths(routes as RouteEntry[]).map((route) => ({ ...route, url: fillParams(route.path) }));

/** A small real photo, so that an upload that got through would be stored. */
async function photoUpload(): Promise<FormData> {
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#884422" } }).jpeg().toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "foto.jpg");
  return form;
}

const validContact = (name: string) => ({
  name,
  email: "cliente@exemplo.com",
  phone: "(84) 98888-7777",
  message: "Quero saber mais sobre os imóveis.",
});

/** For each route, a body that would change something if the route accepted it. */
async function harmfulBody(url: string): Promise<PostOptions> {
  switch (url) {
    case "/contato":
      return { form: validContact("Lead Forjado") };
    case "/agendar-visita":
      return { form: { full_name: "Visita Forjada", phone: "(84) 98888-7777" } };
    case "/auth":
      return { form: { intent: "cadastro", fullName: "Conta Forjada", email: `forjada-${Date.now()}@exemplo.com`, password: "uma-senha-bem-longa-9" } };
    case "/crm/imoveis":
      return {
        json: {
          intent: "create",
          values: {
            codigo: `FORJADO-${Date.now()}`, title: "Imóvel forjado por outro site", description: "Não deveria existir nunca.",
            type: "casa", purpose: "venda", status: "disponivel", price: "100.000,00", neighborhood: "Tirol", city: "Natal", state: "RN",
          },
        },
      };
    case "/crm/leads":
      return { json: { intent: "create", values: { full_name: "Lead Forjado CRM", phone: "(84) 98888-7777", interest_type: "comprar", origin: "site", status: "novo" } } };
    case "/crm/midia":
      return { multipart: await photoUpload() };
    case "/crm/bairros":
      return { form: { slug: "ponta-negra", text: "Texto forjado por outro site" } };
    default:
      return { form: { intent: "delete", id: SAMPLE_ID, email: ADMIN.email } };
  }
}

// ---------------------------------------------------------------------------------------------
// What the database holds

async function snapshot(): Promise<Record<string, string>> {
  if (databaseUrl) {
    return withClient(databaseUrl, async (client) => {
      const tables = await client.query<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
      );
      const result: Record<string, string> = {};
      for (const { name } of tables.rows) {
        const table = pg.escapeIdentifier(name);
        const { rows } = await client.query(`select count(*)::text as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as hash from ${table} t`);
        result[name] = `${rows[0].n}:${rows[0].hash}`;
      }
      return result;
    });
  }
  // Embedded database: nothing else may open it while the server runs; ask the CRM.
  const page = async (path: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: { Cookie: adminCookie }, redirect: "manual" });
    expect(response.status, `${path} as admin`).toBe(200);
    return response.text();
  };
  const counter = (html: string, id: string) => new RegExp(`data-testid="${id}"[\\s\\S]*?data-value[^>]*>([^<]*)<`).exec(html)?.[1] ?? "?";
  const dashboard = await page("/crm");
  const rows = (html: string) => String((html.match(/<tr\b/g) ?? []).length);
  return {
    properties: counter(dashboard, "total-properties"),
    leads: counter(dashboard, "total-leads"),
    leadRows: rows(await page("/crm/leads")),
    propertyRows: rows(await page("/crm/imoveis")),
    userRows: rows(await page("/crm/usuarios")),
  };
}

// ---------------------------------------------------------------------------------------------

test("a write from a foreign origin is refused on every route, with nothing changed", async () => {
  test.setTimeout(240_000);
  // The list really is every route: pages with actions, the new auth pages, resource routes.
  const urls = ALL_ROUTES.map((route) => route.url);
  for (const expected of ["/contato", "/agendar-visita", "/auth", "/crm/imoveis", "/crm/leads", "/crm/usuarios", "/crm/sair", "/crm/midia", "/api/events"]) {
    expect(urls).toContain(expected);
  }

  const before = await snapshot();
  const foreign: { name: string; origin: string | null; headers?: Record<string, string> }[] = [
    { name: "another site", origin: "https://site-malicioso.example" },
    { name: "Origin null (sandboxed frame)", origin: "null" },
    { name: "the server's own address, not the public one", origin: `http://127.0.0.1:${PORT}` },
    { name: "https instead of http", origin: `https://localhost:${PORT}` },
    { name: "no Origin, cross-site fetch", origin: null, headers: { "Sec-Fetch-Site": "cross-site" } },
    { name: "no Origin, same-site fetch", origin: null, headers: { "Sec-Fetch-Site": "same-site" } },
  ];
  const refusedBody = "Pedido recusado: envie o formulário pelo próprio site.";
  for (const route of ALL_ROUTES) {
    const targets = [route.url, route.url === "/" ? "/_root.data" : `${route.url}.data`];
    for (const target of targets) {
      for (const variant of foreign) {
        const response = await post(target, { ...(await harmfulBody(route.url)), cookie: adminCookie, origin: variant.origin, headers: variant.headers });
        expect(response.status, `POST ${target} from ${variant.name}`).toBe(403);
        expect(await response.text()).toBe(refusedBody);
      }
      for (const method of ["PUT", "PATCH", "DELETE"]) {
        const response = await post(target, { ...(await harmfulBody(route.url)), method, cookie: adminCookie, origin: "https://site-malicioso.example" });
        expect(response.status, `${method} ${target}`).toBe(403);
        await response.body?.cancel();
      }
    }
  }
  expect(await snapshot()).toEqual(before);

  // The same requests from our own pages do change things: the refusal above was the check.
  expect((await post("/contato", { ...(await harmfulBody("/contato")), headers: { "X-Forwarded-For": "198.51.100.2" } })).status).toBe(200);
  expect((await post("/crm/leads", { ...(await harmfulBody("/crm/leads")), cookie: adminCookie })).status).toBe(200);
  const upload = await post("/crm/midia", { ...(await harmfulBody("/crm/midia")), cookie: adminCookie });
  expect(upload.status).toBe(200);
  expect((await upload.json()).url).toMatch(/^\/media\/[\w-]+\/800\.webp$/);
  const after = await snapshot();
  expect(after).not.toEqual(before);
  // A browser's own same-origin request without Origin (a plain GET-like navigation) passes.
  const sameOrigin = await post("/contato", { form: validContact("Sem Origin"), origin: null, headers: { "Sec-Fetch-Site": "same-origin", "X-Forwarded-For": "198.51.100.3" } });
  expect(sameOrigin.status).toBe(200);
});

test("a forged X-Forwarded-For entry does not reset the lead limit", async () => {
  // Our proxy (one hop) appends the address it saw: the client is the rightmost entry.
  const client = "203.0.113.60";
  const send = (forwarded: string) => post("/contato", { form: validContact("Cliente Limite"), headers: { "X-Forwarded-For": forwarded } });
  for (let i = 0; i < 3; i++) expect((await send(`10.0.0.${i}, ${client}`)).status).toBe(200);
  // The limit (3 per hour) is reached; whatever the client writes on the left changes nothing.
  for (const forged of ["10.9.9.9", "1.2.3.4, 5.6.7.8", "unknown", ""]) {
    const response = await send(forged ? `${forged}, ${client}` : client);
    expect(response.status, `forged "${forged}"`).toBe(429);
  }
  // Another client, as our proxy reports it, has its own allowance.
  expect((await send("203.0.113.61")).status).toBe(200);
});

test("a forged X-Forwarded-For entry does not reset the sign-in limit", async () => {
  const victim = "vitima-inexistente@hardening.test";
  const attacker = "203.0.113.70";
  const attempt = (forwarded: string) => post("/auth", { form: { email: victim, password: "senha-errada-123" }, headers: { "X-Forwarded-For": forwarded } });
  const statuses: number[] = [];
  for (let i = 0; i < 8 && !statuses.includes(429); i++) statuses.push((await attempt(`10.1.1.${i}, ${attacker}`)).status);
  expect(statuses).toContain(429);
  for (const forged of ["10.200.0.1", "192.0.2.1, 192.0.2.2"]) {
    expect((await attempt(`${forged}, ${attacker}`)).status, `forged "${forged}"`).toBe(429);
  }
});

/** Resident memory of the server process, in bytes (Linux). */
function residentMemory(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((entry) => entry.startsWith("VmRSS:"))!;
  return Number(line.replace(/\D/g, "")) * 1024;
}

/**
 * Sends `size` bytes to a path, declared up front (Content-Length) or streamed (chunked), and
 * resolves with the status as soon as the server answers; the rest is never sent.
 */
function postLarge(path: string, size: number, mode: "length" | "chunked"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" };
    if (mode === "length") headers["Content-Length"] = size;
    const request = http.request(`${server.url}${path}`, { method: "POST", headers });
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (part) => (body += part));
      response.on("end", () => {
        resolve({ status: response.statusCode!, body });
        request.destroy();
      });
      response.on("error", reject);
    });
    // The server may close the connection once it has answered: not a failure.
    request.on("error", (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < size) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      if (!answered) request.end();
    };
    pump();
  });
}

test("a 50 MB body is refused with 413 before it is read, and memory does not grow", async () => {
  const pid = server.process.pid!;
  // Warm up the paths involved, so that what is measured is the bodies.
  for (let i = 0; i < 3; i++) await postLarge("/contato", 128 * 1024, i % 2 ? "length" : "chunked");
  const before = residentMemory(pid);

  const size = 50 * 1024 * 1024;
  // Six at once, as in the report (0.78 → 1.13 GB), each way of sending a body.
  const answers = await Promise.all([
    ...Array.from({ length: 3 }, () => postLarge("/contato", size, "length")),
    ...Array.from({ length: 3 }, () => postLarge("/contato", size, "chunked")),
  ]);
  for (const answer of answers) {
    expect(answer.status).toBe(413);
    expect(answer.body).toBe("Conteúdo grande demais: o limite é de 64 KB.");
  }
  const grown = residentMemory(pid) - before;
  expect(grown, `the server grew by ${(grown / 1024 / 1024).toFixed(1)} MB`).toBeLessThan(30 * 1024 * 1024);

  // Photos have their own limit (5 MB plus the form's framing), also before reading.
  const photo = await postLarge("/crm/midia", 8 * 1024 * 1024, "chunked");
  expect(photo.status).toBe(413);
  expect(JSON.parse(photo.body)).toEqual({ error: "arquivo maior que 5 MB" });

  // And the server still serves.
  expect((await fetch(`${server.url}/robots.txt`)).status).toBe(200);
});

test("signed-in answers, the CRM and sign-in are never cached; public pages keep theirs", async () => {
  const noStore = async (path: string, cookie?: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
    await response.body?.cancel();
    return response.headers.get("cache-control");
  };
  for (const path of ["/crm", "/crm.data", "/crm/leads", "/crm/leads.data", "/crm/imoveis.data", "/crm/usuarios", "/", "/_root.data", "/imoveis", "/imoveis.data", "/contato", "/api/events"]) {
    expect(await noStore(path, adminCookie), `${path} signed in`).toMatch(/^no-store\b/);
  }
  for (const path of ["/auth", "/auth.data", "/crm", "/crm.data", "/crm/leads.data"]) {
    expect(await noStore(path), `${path} signed out`).toBe("no-store");
  }
  // A visitor's public page is not private.
  expect((await noStore("/imoveis")) ?? "").not.toMatch(/no-store/);
  // The same built asset for everyone, signed in or not, stays cacheable.
  const home = await (await fetch(`${server.url}/`)).text();
  const asset = /\/assets\/[\w.-]+\.js/.exec(home)![0];
  expect(await noStore(asset, adminCookie)).toBe("public, max-age=31536000, immutable");
});

test("one log line per request, with its id, and nothing personal", async () => {
  const secretName = `Pessoa Sigilosa ${crypto.randomBytes(3).toString("hex")}`;
  const secretSearch = `busca-sigilosa-${crypto.randomBytes(3).toString("hex")}`;
  const forwarded = "203.0.113.99";
  const outputBefore = server.output().length;

  const list = await fetch(`${server.url}/imoveis?bairro=${secretSearch}`, { headers: { "X-Request-Id": "escolhido-pelo-cliente", "X-Forwarded-For": forwarded, Cookie: adminCookie } });
  await list.body?.cancel();
  const requestId = list.headers.get("x-request-id")!;
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  // Finding 7: a NUL in a name answered 500 and logged the insert's values.
  const nul = await post("/contato", { form: { ...validContact(`${secretName}\u0000`), message: `Olá\n{"level":"error","msg":"forjada ${secretName}"}` }, headers: { "X-Forwarded-For": forwarded } });
  expect(nul.status).toBe(400);
  expect((await nul.text())).toContain("Nome contém caracteres inválidos");
  const saved = await post("/contato", { form: validContact(secretName), headers: { "X-Forwarded-For": "203.0.113.98" } });
  expect(saved.status).toBe(200);

  // Every line is one JSON object: a newline in a message cannot start a line of its own.
  const entries = () =>
    server
      .output()
      .slice(outputBefore)
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const contactPosts = () => entries().filter((candidate) => candidate.path === "/contato" && candidate.method === "POST");
  // The child's output arrives through a pipe: wait for the last request's line.
  await expect.poll(() => contactPosts().map((candidate) => candidate.status)).toEqual([400, 200]);
  const entry = entries().find((candidate) => candidate.reqId === requestId)!;
  expect(entry).toMatchObject({ method: "GET", path: "/imoveis", status: 200 });
  expect(typeof entry.ms).toBe("number");

  const log = server.output().slice(outputBefore);
  for (const secret of [secretName, secretSearch, forwarded, "203.0.113.98", "escolhido-pelo-cliente", adminCookie.split("=")[1].slice(0, 20), "cliente@exemplo.com", "98888-7777", "forjada"]) {
    expect(log, `the log holds "${secret}"`).not.toContain(secret);
  }
});
