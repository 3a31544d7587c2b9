import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { createOwnDatabase, type ServerProcess, startServerProcess } from "../helpers/server-process";
import { waitForHydration } from "./helpers";

/**
 * The production server with WEB_CONCURRENCY=2 on PostgreSQL: one port, two worker processes.
 * Requests reach both; a change made through one worker reaches a live stream held by the other;
 * a worker that dies is replaced; SIGTERM stops the primary and every worker cleanly. Each
 * response names its worker in X-Worker (the cluster's small number, nothing about the machine).
 * Needs TEST_DATABASE_URL (CI provides it).
 */
const baseUrl = process.env.TEST_DATABASE_URL;
const ADMIN = { email: "admin@cluster.test", password: "senha-cluster-1" };
const PORT = 3545;

type Answer = { status: number; worker: string; body: string };

/** One request on a connection of its own, so the cluster picks a worker for it. */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, worker: String(response.headers["x-worker"]), body }));
    });
    req.on("error", reject);
    // A connection handed to a worker that is dying must not hang the test.
    req.setTimeout(5_000, () => req.destroy(new Error("timeout")));
    req.end(options.body);
  });
}

type Stream = { worker: string; events: string[]; next(match: RegExp): Promise<string>; close(): void };

function openStream(url: string, cookie: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const events: string[] = [];
    const waiters: { match: RegExp; done: (event: string) => void }[] = [];
    const req = http.get(`${url}/api/events`, { agent: false, headers: { cookie } }, (response) => {
      let buffer = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let boundary: number;
        while ((boundary = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          events.push(event);
          for (const waiter of waiters.filter((w) => w.match.test(event))) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.done(event);
          }
        }
      });
      resolve({
        worker: String(response.headers["x-worker"]),
        events,
        next: (match) => {
          const seen = events.find((event) => match.test(event));
          return seen ? Promise.resolve(seen) : new Promise((done) => waiters.push({ match, done }));
        },
        close: () => req.destroy(),
      });
    });
    req.on("error", reject);
  });
}

function workerPids(primary: number): number[] {
  return fs
    .readFileSync(`/proc/${primary}/task/${primary}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    // The executable, not /proc/<pid>/comm: Node 24 names its main thread "MainThread".
    .filter((pid) => executable(pid) === "node");
}

/** A child's executable name; undefined once it has exited (a zombie not yet reaped has none). */
function executable(pid: number): string | undefined {
  try {
    return path.basename(fs.readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return undefined;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test.describe("WEB_CONCURRENCY=2 on PostgreSQL", () => {
  test.skip(!baseUrl, "needs TEST_DATABASE_URL");
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  let server: ServerProcess;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let cookie = "";

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    database = await createOwnDatabase(baseUrl!, "cluster");
    server = await startServerProcess({
      port: PORT,
      env: {
        DATABASE_URL: database.url,
        WEB_CONCURRENCY: "2",
        AUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
      },
    });
  });

  // A failure comes with the end of the primary's and workers' log, which says why.
  test.afterEach(({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) console.log(server?.output().slice(-4000));
  });

  test.afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  test("requests are served by two worker processes on one port", async () => {
    expect(workerPids(server.process.pid!)).toHaveLength(2);
    const workers = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const answer = await request(`${server.url}/robots.txt`);
      expect(answer.status).toBe(200);
      workers.add(answer.worker);
    }
    expect([...workers].sort()).toEqual(["1", "2"]);
  });

  test("a lead posted through one worker reaches a staff stream held by the other", async ({ page }) => {
    await page.goto(`${server.url}/auth`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Senha").fill(ADMIN.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page).toHaveURL(/\/crm$/);
    cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");

    // New connections alternate between the workers: open streams until each worker holds one.
    const streams = new Map<string, Stream>();
    const extra: Stream[] = [];
    while (streams.size < 2) {
      const stream = await openStream(server.url, cookie);
      await stream.next(/^event: ready/m);
      if (streams.has(stream.worker)) extra.push(stream);
      else streams.set(stream.worker, stream);
    }

    const posted = await request(`${server.url}/contato.data`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
      body: new URLSearchParams({ name: "Maria do Cluster", email: "maria@cluster.test", phone: "(84) 99999-0000", message: "Quero visitar." }).toString(),
    });
    expect(posted.status).toBe(200);
    const other = [...streams.keys()].find((worker) => worker !== posted.worker)!;
    expect(other).toBeDefined();
    expect(await streams.get(other)!.next(/"table":"leads"/)).toContain("event: change");
    expect(await streams.get(posted.worker)!.next(/"table":"leads"/)).toContain("event: change");
    for (const stream of [...streams.values(), ...extra]) stream.close();
  });

  test("a worker that dies is replaced by a new one", async () => {
    const primary = server.process.pid!;
    const [first] = workerPids(primary);
    process.kill(first, "SIGKILL");
    // The primary reaps the dead worker and forks another (after 100 ms to 1 s).
    await expect
      .poll(() => workerPids(primary).filter((pid) => pid !== first).length, { timeout: 30_000 })
      .toBe(2);
    expect(workerPids(primary)).not.toContain(first);
    // Worker numbers only grow: a number beyond the first two answering is the replacement,
    // serving requests. Each request is bounded (5 s), since the primary may still hand a
    // connection to the worker being killed.
    await expect
      .poll(
        async () => {
          const answers = await Promise.all(Array.from({ length: 4 }, () => request(`${server.url}/robots.txt`).catch(() => undefined)));
          return answers.some((answer) => answer?.status === 200 && Number(answer.worker) > 2);
        },
        { timeout: 60_000 },
      )
      .toBe(true);
  });

  test("SIGTERM stops the primary and every worker cleanly, ending open streams", async () => {
    const primary = server.process.pid!;
    const workers = workerPids(primary);
    expect(workers).toHaveLength(2);
    const stream = await openStream(server.url, "");
    await stream.next(/^event: ready/m);
    const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
    server.process.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of workers) expect(alive(pid)).toBe(false);
    expect(server.output()).not.toMatch(/did not stop cleanly|still running after/);
    // The workers' own graceful stop ran and said so.
    expect(server.output().match(/"msg":"Encerrado\."/g)?.length).toBeGreaterThanOrEqual(3);
  });
});
