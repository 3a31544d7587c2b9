import crypto from "node:crypto";
import fs from "node:fs";
import { type APIRequestContext, type BrowserContext, expect, type Page, request as playwrightRequest, test } from "@playwright/test";
import sharp from "sharp";
import { openEventStream, type Outcome, startLoadBalancer, startVisitorLoad } from "../helpers/load-balancer";
import type { Nginx } from "../helpers/nginx";
import { startS3Server } from "../helpers/s3-server";
import { createOwnDatabase, type ServerProcess, startServerProcess, withClient } from "../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp-server";
import { signInAsAdmin, waitForHydration } from "./helpers";

/**
 * Two servers — separate processes with their own ports and data folders, as two machines would
 * be — behind nginx running docs/deploy/nginx-load-balancer.conf with TLS, on one PostgreSQL and
 * one S3-compatible bucket (README "Several servers"). Then one is killed with SIGKILL while
 * visitors browse and leads are posted, and started again. Needs TEST_DATABASE_URL.
 */
const baseUrl = process.env.TEST_DATABASE_URL;
const PORT_A = 3471;
const PORT_B = 3472;
const PORT_C = 3473;
const TLS_PORT = 3474;
const PUBLIC_URL = `https://localhost:${TLS_PORT}`;
const ADMIN = { email: "admin@servidores.test", password: "senha-servidores-1" };
const BROKER = "corretor@servidores.test";
const BROWSER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36";
const TITLE = "Casa vista por todos os servidores";

/** Whether any request that started after the kill (with a margin) failed: then nginx's log says why. */
function lateFailures(gets: Outcome[], posts: Outcome[], killedAt: number): boolean {
  return [...gets, ...posts].some((outcome) => outcome.started > killedAt + 500 && outcome.status !== 200 && outcome.status !== 304);
}

test.describe("several servers behind a load balancer", () => {
  test.skip(!baseUrl, "needs TEST_DATABASE_URL");
  test.describe.configure({ mode: "serial", timeout: 90_000 });

  let a: ServerProcess;
  let b: ServerProcess;
  let nginx: Nginx;
  let smtp: TestSmtpServer;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let env: Record<string, string>;
  let staff: BrowserContext;
  let visitor: APIRequestContext;
  let propertyId: string;

  const sql = <T>(text: string, values: unknown[] = []) => withClient(database!.url, async (client) => (await client.query(text, values)).rows as T[]);
  const port = (upstream?: string) => upstream?.split(",").pop()!.trim().split(":").pop();

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    database = await createOwnDatabase(baseUrl!, "servers");
    [s3, smtp] = await Promise.all([startS3Server("fotos"), startSmtpServer()]);
    env = {
      DATABASE_URL: database.url,
      PUBLIC_URL,
      TRUST_PROXY: "true",
      TRUST_PROXY_HOPS: "1",
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      AUTH_SECRET: crypto.randomBytes(48).toString("base64url"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Site <site@servidores.test>",
      BROKER_EMAIL: BROKER,
      // Every test request comes from 127.0.0.1: the per-address lead limit is not under test.
      LEAD_LIMIT_PER_HOUR: "100000",
    };
    // Both at once, each with its own data folder: migrations and the first admin happen once.
    [a, b] = await Promise.all([startServerProcess({ port: PORT_A, env }), startServerProcess({ port: PORT_B, env })]);
    nginx = await startLoadBalancer({ servers: [PORT_A, PORT_B], tlsPort: TLS_PORT });
    visitor = await playwrightRequest.newContext({ baseURL: PUBLIC_URL, ignoreHTTPSErrors: true, userAgent: BROWSER_AGENT });
  });

  test.afterAll(async () => {
    await staff?.close();
    await visitor?.dispose();
    await nginx?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([s3?.stop(), smtp?.stop()]);
    await database?.drop();
  });

  test("a session made through one server is valid on every server", async ({ browser }) => {
    staff = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: PUBLIC_URL });
    await signInAsAdmin(await staff.newPage(), ADMIN);
    const answeredBy = new Set<string | undefined>();
    for (let i = 0; i < 6; i++) {
      const response = await staff.request.get("/crm", { maxRedirects: 0 });
      expect(response.status()).toBe(200);
      expect(await response.text()).toContain("Dashboard");
      answeredBy.add(port(response.headers()["x-upstream"]));
    }
    // nginx took turns: both servers accepted the session.
    expect([...answeredBy].sort()).toEqual([String(PORT_A), String(PORT_B)]);
  });

  test("a change made through one server shows on every server's next page and live stream", async ({ browser }) => {
    // Both servers' page caches hold the list before the change, and each has a stream open.
    for (const server of [a, b]) {
      for (let i = 0; i < 2; i++) expect((await visitor.get(`${server.url}/imoveis`)).status()).toBe(200);
    }
    const streams = await Promise.all([a, b].map((server) => openEventStream(`${server.url}/api/events`)));
    await expect.poll(() => streams.every((stream) => stream.text().includes("event: ready"))).toBe(true);
    const page = await (await browser.newContext({ ignoreHTTPSErrors: true, baseURL: PUBLIC_URL })).newPage();
    await page.goto("/imoveis");
    await waitForHydration(page);
    await expect(page.locator("html")).toHaveAttribute("data-live", "open", { timeout: 15_000 });

    const crm = await staff.newPage();
    await crm.goto("/crm/imoveis");
    await waitForHydration(crm);
    await crm.getByRole("button", { name: "Novo Imóvel" }).click();
    const dialog = crm.getByRole("dialog", { name: "Novo Imóvel" });
    await dialog.getByLabel("Código").fill("SRV-1");
    await dialog.getByLabel("Título").fill(TITLE);
    await dialog.getByLabel("Descrição").fill("Cadastrada por um servidor, vista em todos.");
    await dialog.getByLabel("Tipo").selectOption("casa");
    await dialog.getByLabel("Finalidade").selectOption("venda");
    await dialog.getByLabel("Bairro").fill("Ponta Negra");
    await dialog.getByRole("button", { name: "Cadastrar Imóvel" }).click();
    await expect(crm.getByText("Imóvel cadastrado com sucesso!")).toBeVisible();

    for (const stream of streams) await expect.poll(() => stream.text()).toContain('"table":"properties"');
    for (const server of [a, b]) expect(await (await visitor.get(`${server.url}/imoveis`)).text()).toContain(TITLE);
    await expect(page.getByRole("article").filter({ hasText: TITLE })).toBeVisible();
    for (const stream of streams) stream.close();
    await page.context().close();
    await crm.close();
    [{ id: propertyId }] = await sql<{ id: string }>("select id from properties where codigo = 'SRV-1'");
  });

  test("a photo uploaded through one server is served by every server", async () => {
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#2277aa" } }).jpeg().toBuffer();
    const upload = await staff.request.post("/crm/midia", {
      multipart: { file: { name: "foto.jpg", mimeType: "image/jpeg", buffer: photo } },
      headers: { Origin: PUBLIC_URL },
    });
    expect(upload.status()).toBe(200);
    const { url } = (await upload.json()) as { url: string };
    for (const server of [a, b]) {
      const served = await visitor.get(`${server.url}${url}`);
      expect(served.status()).toBe(200);
      expect(served.headers()["content-type"]).toBe("image/webp");
    }
  });

  test("background work runs once across servers: each lead's e-mail, each page view", async () => {
    const names = Array.from({ length: 6 }, (_, i) => `Lote Um ${i} ${crypto.randomBytes(3).toString("hex")}`);
    const upstreams = new Set<string | undefined>();
    for (const name of names) {
      const posted = await visitor.post("/agendar-visita", { form: { full_name: name, phone: "(84) 99999-1234" }, headers: { Origin: PUBLIC_URL } });
      expect(posted.status()).toBe(200);
      upstreams.add(port(posted.headers()["x-upstream"]));
    }
    expect(upstreams.size).toBe(2);
    await Promise.all(names.map((name) => smtp.waitFor((mail) => mail.subject === `Novo lead: ${name}`, 30_000)));
    // Once no alert is left to send, none can be sent again: each went out exactly once.
    await expect.poll(async () => (await sql<{ n: number }>("select count(*)::int as n from outbox where status <> 'sent'"))[0].n).toBe(0);
    for (const name of names) expect(smtp.messages.filter((mail) => mail.subject === `Novo lead: ${name}`)).toHaveLength(1);

    // Views are counted in each server's memory and added in batches: the sum is every view once.
    const views = async () => (await sql<{ n: number }>("select coalesce(sum(views), 0)::int as n from property_views where property_id = $1", [propertyId]))[0].n;
    const before = await views();
    const viewedOn = new Set<string | undefined>();
    for (let i = 0; i < 8; i++) {
      const response = await visitor.get(`/imoveis/${propertyId}`);
      expect(response.status()).toBe(200);
      viewedOn.add(port(response.headers()["x-upstream"]));
    }
    expect(viewedOn.size).toBe(2);
    await expect.poll(views, { timeout: 30_000 }).toBe(before + 8);
  });

  test("a server with another auth secret refuses to join, and says why", async () => {
    // The usual mistake: AUTH_SECRET left out on one machine, which then makes its own.
    const started = startServerProcess({ port: PORT_C, env: { ...env, AUTH_SECRET: "" } });
    await expect(started).rejects.toThrow(/Configure o mesmo AUTH_SECRET em todos os servidores/);
    fs.rmSync(`.tmp/server-${PORT_C}`, { recursive: true, force: true });
    // The two running servers are untouched: the staff session still works.
    expect((await staff.request.get("/crm", { maxRedirects: 0 })).status()).toBe(200);
  });

  test("a server killed under load: leads stored once, GETs answered by the other, streams back, the server rejoins", async ({ browser }) => {
    test.setTimeout(150_000);
    // A browser page whose live stream is held by A, the server about to die.
    const context = await browser.newContext({ ignoreHTTPSErrors: true, baseURL: PUBLIC_URL });
    let watched: Page | undefined;
    for (let tries = 0; tries < 12 && !watched; tries++) {
      const page = await context.newPage();
      const stream = page.waitForResponse((response) => response.url().endsWith("/api/events"), { timeout: 30_000 });
      await page.goto("/imoveis");
      if (port((await stream).headers()["x-upstream"]) === String(PORT_A)) watched = page;
      else {
        await page.close();
        // Round robin: a page load makes a fixed number of requests, so its stream can land on
        // the same server every time (CI saw six in a row on B). One more request shifts the turn.
        await visitor.get("/robots.txt");
      }
    }
    expect(watched, "no page's stream landed on server A").toBeDefined();
    await expect(watched!.locator("html")).toHaveAttribute("data-live", "open");

    let killedAt = Number.POSITIVE_INFINITY;
    const surfers = await Promise.all([0, 1].map(() => context.newPage()));
    const load = startVisitorLoad({
      request: visitor,
      pages: surfers,
      paths: ["/", "/imoveis", `/imoveis/${propertyId}`, "/contato", "/sobre"],
      origin: PUBLIC_URL,
    });
    const { gets, posts } = load;

    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const reconnected = watched!.waitForResponse(
      (response) => response.url().endsWith("/api/events") && port(response.headers()["x-upstream"]) === String(PORT_B),
      { timeout: 30_000 },
    );
    const exited = new Promise((resolve) => a.process.once("exit", resolve));
    a.process.kill("SIGKILL");
    killedAt = Date.now();
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await load.stop();

    const unacknowledged = posts.filter((post) => post.status !== 200);
    test.info().annotations.push({
      type: "load",
      description: `${gets.length} GETs (${gets.filter((get) => get.retried).length} asked of A then B, ${gets.filter((get) => get.status === "error").length} cut off by the kill), ${posts.length} leads posted (${posts.filter((post) => post.retried).length} refused by A and taken by B, ${unacknowledged.length} not acknowledged: ${unacknowledged.map((post) => post.status).join(", ") || "none"})`,
    });
    console.log(`[multi-server] ${test.info().annotations.at(-1)!.description}`);
    // Requests that were in flight on A when it died may fail; nothing after it.
    const late = (outcome: Outcome) => outcome.started > killedAt + 500;
    if (lateFailures(gets, posts, killedAt)) console.log(`nginx's log:\n${nginx.log().split("\n").slice(-40).join("\n")}`);
    const lateGets = gets.filter(late);
    const latePosts = posts.filter(late);
    expect(lateGets.length).toBeGreaterThan(10);
    expect(latePosts.length).toBeGreaterThan(5);
    expect(lateGets.filter((get) => get.status !== 200 && get.status !== 304), "GETs after the kill not answered by B").toEqual([]);
    expect(latePosts.filter((post) => post.status !== 200), "leads after the kill not taken by B").toEqual([]);
    // nginx never answers for a dead server with an error page: a GET is asked of B instead.
    expect(gets.filter((get) => typeof get.status === "number" && get.status !== 200 && get.status !== 304)).toEqual([]);

    // Every acknowledged lead is stored exactly once; one cut off mid-way at most once.
    const stored = new Map(
      (await sql<{ full_name: string; n: number }>("select full_name, count(*)::int as n from leads where full_name like 'Carga %' group by full_name")).map(
        (row) => [row.full_name, row.n],
      ),
    );
    const acknowledged = posts.filter((post) => post.status === 200);
    expect(acknowledged.length).toBeGreaterThan(10);
    expect(acknowledged.filter((post) => stored.get(post.name) !== 1)).toEqual([]);
    expect(posts.filter((post) => (stored.get(post.name) ?? 0) > 1)).toEqual([]);
    expect(stored.size).toBeLessThanOrEqual(posts.length);

    // The page whose stream died reconnects (to B) and hears the next change.
    expect((await reconnected).status()).toBe(200);
    await expect(watched!.locator("html")).toHaveAttribute("data-live", "open", { timeout: 20_000 });
    await sql("update properties set title = $1 where id = $2", [`${TITLE} (após a queda)`, propertyId]);
    await expect(watched!.getByRole("article").filter({ hasText: "(após a queda)" })).toBeVisible({ timeout: 15_000 });

    // A starts again on its own data folder and rejoins: nginx sends it visitors again, its
    // session checks and live stream work, and every acknowledged lead's alert goes out (a
    // message A held when it died is sent once its claim lapses).
    a = await startServerProcess({ port: PORT_A, env, keepData: true });
    await expect
      .poll(async () => port((await visitor.get("/robots.txt")).headers()["x-upstream"]), { timeout: 30_000, intervals: [250] })
      .toBe(String(PORT_A));
    const answeredBy = new Set<string | undefined>();
    for (let i = 0; i < 4; i++) {
      const response = await staff.request.get("/crm", { maxRedirects: 0 });
      expect(response.status()).toBe(200);
      answeredBy.add(port(response.headers()["x-upstream"]));
    }
    expect(answeredBy.has(String(PORT_A))).toBe(true);
    const stream = await openEventStream(`${a.url}/api/events`);
    await expect.poll(() => stream.text()).toContain("event: ready");
    await sql("update properties set featured = true where id = $1", [propertyId]);
    await expect.poll(() => stream.text()).toContain('"table":"properties"');
    stream.close();
    await expect.poll(async () => (await sql<{ n: number }>("select count(*)::int as n from outbox where status <> 'sent'"))[0].n, { timeout: 60_000 }).toBe(0);
    for (const post of acknowledged) {
      const copies = smtp.messages.filter((mail) => mail.subject === `Novo lead: ${post.name}`);
      expect(copies.length, post.name).toBeGreaterThanOrEqual(1);
      // A copy sent twice (A died between the SMTP server's "accepted" and its record) has one Message-ID.
      expect(new Set(copies.map((mail) => mail.messageId)).size, post.name).toBe(1);
    }
    expect(a.output()).not.toMatch(/"level":"(fatal|error)"/);
    await context.close();
  });
});
