import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { expect, test } from "@playwright/test";

/**
 * The cache hit's fast path (server/cache-hit.ts, decision 033) answers exactly what the whole
 * middleware chain answered before it existed. The production build on a copy of the seeded data
 * (tests/e2e/cache-fast-path-server.ts): one app with the fast path, one without
 * (`cacheFastPath: false`), the same requests to each over HTTP, and every public page compared —
 * status, every header but the request id and date, the bytes under each encoding — plus 304,
 * HEAD, the cookie that bypasses the cache, another spelling of a path and the overload guard.
 */

const PORT = 3560;
const FAST = PORT;
const CHAIN = PORT + 1;
/** The fast path with MAX_REQUESTS_IN_FLIGHT=1. */
const GUARDED = PORT + 2;
const ENCODINGS = ["br, gzip", "gzip", ""];

let server: ChildProcess;
let pages: string[];

type Answer = { status: number; headers: Record<string, string>; body: Buffer; requestId: string | undefined; csp: string | undefined };

/** One request, raw: the bytes as sent (fetch would decompress them). */
function request(port: number, url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: url, method: options.method ?? "GET", headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (name === "date" || name === "x-request-id" || value === undefined) continue;
          headers[name] = Array.isArray(value) ? value.join(", ") : value;
        }
        // A cached data answer (.data, robots.txt) got the chain's per-request nonce in its CSP,
        // which nothing in it uses; the fast path sends the same policy without it.
        if (headers["content-security-policy"]) headers["content-security-policy"] = headers["content-security-policy"].replace(/ 'nonce-[^']+'/, "");
        resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks), requestId: res.headers["x-request-id"] as string | undefined, csp: res.headers["content-security-policy"] as string | undefined });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = spawn(process.execPath, ["--import", "tsx", "tests/e2e/cache-fast-path-server.ts"], { env: { ...process.env, PORT: String(PORT) }, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve, reject) => {
    server.stdout!.on("data", (chunk) => String(chunk).includes("ready") && resolve(null));
    server.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  // The caches store only once they hear change events.
  for (const port of [FAST, CHAIN, GUARDED]) await expect.poll(async () => (await request(port, "/sobre")).headers["x-cache"], { timeout: 20_000 }).toBe("HIT");
  const list = (await request(CHAIN, "/imoveis")).body.toString("utf8");
  const property = /href="(\/imoveis\/[0-9a-f-]{36})"/.exec(list)?.[1];
  const neighbourhood = /href="(\/imoveis\/bairro\/[^"?]+)"/.exec(list)?.[1];
  expect(property, "a property on /imoveis").toBeTruthy();
  pages = [
    "/",
    "/imoveis",
    "/imoveis?tipo=apartamento&finalidade=venda",
    "/imoveis?visualizacao=mapa",
    property!,
    ...(neighbourhood ? [neighbourhood] : []),
    "/imoveis/bairros",
    "/sobre",
    "/contato",
    "/agendar-visita",
    "/privacidade",
    "/nao-existe",
    "/robots.txt",
    "/sitemap.xml",
    "/_root.data",
    "/imoveis.data?_routes=routes%2Fproperties",
    `${property}.data`,
  ];
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
});

/** Until the entry is in both caches: the chain's answer is then a hit too. */
async function warm(url: string) {
  for (const port of [FAST, CHAIN]) {
    for (let i = 0; i < 5 && (await request(port, url)).headers["x-cache"] !== "HIT"; i++);
  }
}

test("every public page: the same status, headers and bytes in every encoding", async () => {
  for (const url of pages) {
    await warm(url);
    for (const encoding of ENCODINGS) {
      const init = { headers: { "accept-encoding": encoding } };
      const [a, b] = [await request(FAST, url, init), await request(CHAIN, url, init)];
      const label = `${url} (${encoding || "identity"})`;
      expect(a.headers["x-cache"], label).toBe("HIT");
      expect(a.status, label).toBe(b.status);
      expect(a.headers, label).toEqual(b.headers);
      expect(a.body.equals(b.body), label).toBe(true);
      expect(a.requestId, label).toMatch(/^[0-9a-f-]{36}$/);
    }
  }
});

test("a cached page keeps its CSP by hashes, never a nonce", async () => {
  const csp = (await request(FAST, "/")).headers["content-security-policy"];
  expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+/);
  expect(csp).not.toContain("nonce");
  // Which path answered: the chain gave a cached data answer this request's nonce, unused.
  expect((await request(CHAIN, "/_root.data")).csp).toContain("'nonce-");
  expect((await request(FAST, "/_root.data")).csp).not.toContain("nonce");
});

test("304 on If-None-Match, HEAD without a body, as the chain answers them", async () => {
  for (const url of ["/", "/imoveis", "/sobre"]) {
    const etag = (await request(FAST, url)).headers.etag;
    const init = { headers: { "if-none-match": etag, "accept-encoding": "br" } };
    const [a, b] = [await request(FAST, url, init), await request(CHAIN, url, init)];
    expect(a.status, url).toBe(304);
    expect(a.headers, url).toEqual(b.headers);
    expect(a.body.length).toBe(0);

    // HEAD: the headers of the GET, no body (the chain rendered a HEAD afresh; now it is a hit).
    const get = await request(FAST, url, { headers: { "accept-encoding": "gzip" } });
    const head = await request(FAST, url, { method: "HEAD", headers: { "accept-encoding": "gzip" } });
    expect(head.status, url).toBe(200);
    expect(head.headers, url).toEqual(get.headers);
    expect(head.body.length, url).toBe(0);
  }
});

test("a session cookie, another spelling, a miss: the chain answers", async () => {
  const signedIn = await request(FAST, "/sobre", { headers: { cookie: "better-auth.session_token=abc" } });
  expect(signedIn.headers["x-cache"]).toBeUndefined();
  expect(signedIn.headers["cache-control"]).toBe("no-store");
  expect(signedIn.requestId).toMatch(/^[0-9a-f-]{36}$/);

  // A cookie the app never reads changes nothing.
  expect((await request(FAST, "/sobre", { headers: { cookie: "tema=escuro" } })).headers["x-cache"]).toBe("HIT");

  const spelled = await request(FAST, "/SOBRE");
  expect(spelled.status).toBe(301);
  expect(spelled.headers.location).toBe("/sobre");

  const miss = await request(FAST, "/imoveis?pagina=1&tipo=casa");
  expect(miss.headers["x-cache"]).toMatch(/MISS|SHARED/);
  expect((await request(FAST, "/imoveis?tipo=casa&pagina=1")).headers["x-cache"]).toBe("HIT");
});

test("the overload guard refuses a hit as it refuses anything else", async () => {
  // A form post whose body has not all arrived stays in flight: the bound (one) is full.
  const socket = net.connect(GUARDED, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(`POST /contato HTTP/1.1\r\nHost: localhost:${GUARDED}\r\nOrigin: http://localhost:${PORT}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nname=a`);
  await expect.poll(async () => (await request(GUARDED, "/sobre")).status).toBe(503);
  const refused = await request(GUARDED, "/sobre");
  expect(refused.headers["retry-after"]).toBe("2");
  expect(refused.headers["cache-control"]).toBe("no-store");
  expect(refused.requestId).toMatch(/^[0-9a-f-]{36}$/);
  socket.destroy();
  await expect.poll(async () => (await request(GUARDED, "/sobre")).headers["x-cache"]).toBe("HIT");
});
