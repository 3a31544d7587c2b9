import { execSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { openPglite } from "../app/db/client.server";
import { startServerProcess, type ServerProcess } from "../tests/helpers/server-process";
import { TEMPLATE_DIR } from "../tests/e2e/template";
import { BENCH_SERVER_ENV, databaseOnTestServer, percentile, recreateDatabase } from "./helpers";

/**
 * Issue 10's figures, side by side in one run on this machine (figures, never assertions):
 *  1. the ceiling: bare Hono answering a 12 KB page;
 *  2. memory after a first start that seeds the demo photos;
 *  3. embedded database: each public page at 50 connections, each rendered uncached (one at a
 *     time), a 200-connection burst (errors,
 *     timeouts at 10 s), RSS idle and after the burst, and a mixed minute (200 visitors browsing
 *     while 20 leads per second are posted; every acknowledged lead must be in the database);
 *     during the burst, 40 new visitors a second, each on a new connection: time to their page;
 *  4. PostgreSQL (WEB_CONCURRENCY workers): the same, plus /imoveis with 2,000 extra listings.
 * Writes .tmp/bench/latest.json and prints tables. BENCH_SCALE=0.2 shortens every duration for a
 * quick look; BENCH_ONLY=embedded|postgres runs one half. PostgreSQL: BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL's server with a database of its own (created and dropped here).
 */

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const seconds = (value: number) => Math.max(2, Math.round(value * SCALE));
const ONLY = process.env.BENCH_ONLY;
const PORTS = { ceiling: 3540, firstStart: 3541, embedded: 3542, postgres: 3543 };
const LEADS_PER_SECOND = 20;
const EXTRA_LISTINGS = 2000;
const SERVER_ENV = BENCH_SERVER_ENV;

type PageFigure = { path: string; reqPerSec: number; p50: number; p99: number; errors: number; timeouts: number; non2xx: number };
type BurstFigure = { connections: number; seconds: number; requests: number; reqPerSec: number; p99: number; errors: number; timeouts: number; non2xx: number };
/** Visitors who arrive during the burst, each on a new connection: how long until their page came. */
type NewVisitorsFigure = { arrived: number; answered: number; unanswered: number; p50: number; p99: number; max: number };
type MixedFigure = BurstFigure & {
  leadsPosted: number;
  leadsAcknowledged: number;
  leadErrors: number;
  leadFailures: Record<string, number>;
  /** Second of the minute → failed posts sent then. */
  leadFailuresBySecond: Record<string, number>;
  acknowledgedMissing: number;
};

const report: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model, memoryGb: +(os.totalmem() / 2 ** 30).toFixed(1), node: process.version },
  commit: git("git rev-parse --short HEAD") + (git("git status --porcelain --untracked-files=no") ? " (with uncommitted changes)" : ""),
  scale: SCALE,
};

function git(command: string): string {
  try {
    return execSync(command, { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/** The server's RSS; with workers, each process's and their sum. */
function memory(server: ServerProcess): { totalMb: number; processes: number[] } {
  const pid = server.process.pid!;
  let children: number[] = [];
  try {
    // Cluster workers are node processes; tsx's esbuild helper is not the server.
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      // The executable, not /proc/<pid>/comm: Node 24 names its main thread "MainThread".
      .filter((child) => path.basename(fs.readlinkSync(`/proc/${child}/exe`)) === "node");
  } catch {
    // no children
  }
  const processes = [pid, ...children].map(rssMb);
  return { totalMb: processes.reduce((sum, value) => sum + value, 0), processes };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function load(url: string, connections: number, duration: number, paths?: string[]): Promise<Result> {
  return autocannon({
    // The server listens on 127.0.0.1 only: no detour through ::1.
    url: url.replace("//localhost:", "//127.0.0.1:"),
    connections,
    duration,
    timeout: 10,
    headers: { "accept-encoding": "br, gzip" },
    ...(paths ? { requests: paths.map((p) => ({ path: p })) } : {}),
  });
}

function pageFigure(pathname: string, result: Result): PageFigure {
  return {
    path: pathname,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

function burstFigure(connections: number, duration: number, result: Result): BurstFigure {
  return {
    connections,
    seconds: duration,
    requests: result.requests.total,
    reqPerSec: Math.round(result.requests.average),
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * The 200-connection burst, while 40 new visitors a second arrive, each on a connection of their own
 * (as a link opened from WhatsApp does): the kept-alive connections measure throughput, the new
 * ones whether a saturated server still lets people in (decision 009).
 */
async function burstWithNewVisitors(server: ServerProcess, paths: string[]): Promise<{ burst: BurstFigure; newVisitors: NewVisitorsFigure }> {
  const waits: number[] = [];
  let arrived = 0;
  let unanswered = 0;
  const visits: Promise<void>[] = [];
  const port = Number(new URL(server.url).port);
  const visit = (pathname: string) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.get({ host: "127.0.0.1", port, path: pathname, agent: false, timeout: 10_000 }, (response) => {
        response.resume();
        response.on("end", () => {
          if (response.statusCode === 200) waits.push(performance.now() - started);
          else unanswered++;
          resolve();
        });
      });
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", () => {
        unanswered++;
        resolve();
      });
    });
  const arrivals = setInterval(() => visits.push(visit(paths[arrived++ % paths.length])), 25);
  const result = await load(server.url, 200, seconds(20), paths);
  clearInterval(arrivals);
  await Promise.all(visits);
  const at = (p: number) => (waits.length ? Math.round(percentile(waits, p)) : NaN);
  return {
    burst: burstFigure(200, seconds(20), result),
    newVisitors: { arrived, answered: waits.length, unanswered, p50: at(50), p99: at(99), max: at(100) },
  };
}

async function publicPaths(base: string): Promise<string[]> {
  const html = await (await fetch(`${base}/imoveis`)).text();
  const detail = /href="(\/imoveis\/[0-9a-f-]{36})"/.exec(html)?.[1];
  return ["/", "/imoveis", "/imoveis?tipo=apartamento&finalidade=venda", ...(detail ? [detail] : []), "/sobre", "/contato"];
}

/**
 * Each page rendered, not answered from the cache (issue 26, item 3: uncached renders report
 * their own figure): one request at a time with a session cookie nobody holds, which bypasses the
 * cache as a signed-in visitor does — loaders, React's render and a per-request compression, what
 * a first visit after a change costs before its answer is stored.
 */
async function uncachedRenders(base: string, paths: string[], count = 20): Promise<{ path: string; p50: number; p99: number }[]> {
  const figures = [];
  for (const p of paths) {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const response = await fetch(base + p, { headers: { cookie: "better-auth.session_token=bench", "accept-encoding": "br, gzip" } });
      await response.arrayBuffer();
      if (response.headers.get("x-cache")) throw new Error(`${p} came from the cache`);
      times.push(performance.now() - started);
    }
    figures.push({ path: p, p50: Math.round(percentile(times, 50)), p99: Math.round(percentile(times, 99)) });
  }
  return figures;
}

async function warm(base: string, paths: string[]) {
  for (const p of paths) for (let i = 0; i < 5; i++) await (await fetch(base + p)).arrayBuffer();
}

/** 200 visitors browsing every public page while leads arrive through the contact form. */
async function mixedMinute(server: ServerProcess, paths: string[], tag: string): Promise<{ figure: MixedFigure; acknowledged: string[] }> {
  const duration = seconds(60);
  const acknowledged: string[] = [];
  let posted = 0;
  let leadErrors = 0;
  /** What the refused or failed posts got: a status code or the error's name (TimeoutError). */
  const failures: Record<string, number> = {};
  const inFlight: Promise<void>[] = [];
  const started = Date.now();
  /** When (seconds into the minute) each failed post was sent: a cluster points at a cause. */
  const failedAt: number[] = [];
  // 127.0.0.1 like autocannon: "localhost" may try ::1 first, where the server does not listen.
  const base = server.url.replace("//localhost:", "//127.0.0.1:");
  const post = async (n: number) => {
    const email = `bench-${tag}-${n}@exemplo.com`;
    const sentAt = Math.round((Date.now() - started) / 1000);
    try {
      const response = await fetch(`${base}/contato.data`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams({ name: `Visitante ${n}`, email, phone: "(84) 99999-0000", message: "Tenho interesse no imóvel." }),
        signal: AbortSignal.timeout(10_000),
      });
      const body = await response.text();
      if (response.status === 200 && body.includes("Mensagem enviada")) acknowledged.push(email);
      else {
        leadErrors++;
        failedAt.push(sentAt);
        failures[response.status] = (failures[response.status] ?? 0) + 1;
      }
    } catch (error) {
      leadErrors++;
      failedAt.push(sentAt);
      const name = error instanceof Error ? error.name : "error";
      failures[name] = (failures[name] ?? 0) + 1;
    }
  };
  const poster = setInterval(() => inFlight.push(post(++posted)), 1000 / LEADS_PER_SECOND);
  const result = await load(server.url, 200, duration, paths);
  clearInterval(poster);
  await Promise.all(inFlight);
  return {
    figure: {
      ...burstFigure(200, duration, result),
      leadsPosted: posted,
      leadsAcknowledged: acknowledged.length,
      leadErrors,
      leadFailures: failures,
      leadFailuresBySecond: countBy(failedAt),
      acknowledgedMissing: NaN,
    },
    acknowledged,
  };
}

function countBy(values: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function missing(acknowledged: string[], stored: string[]): number {
  const have = new Set(stored);
  return acknowledged.filter((email) => !have.has(email)).length;
}

async function ceiling() {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/ceiling-server.ts"], {
    env: { ...process.env, PORT: String(PORTS.ceiling) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise((resolve) => child.stdout!.once("data", resolve));
  try {
    const result = await load(`http://127.0.0.1:${PORTS.ceiling}`, 50, seconds(10));
    report.ceiling = pageFigure("bare Hono, 12 KB", result);
  } finally {
    child.kill("SIGTERM");
  }
}

async function firstStart() {
  // An empty data folder: the server seeds the demo listings and renders their photos with sharp.
  const server = await startServerProcess({ port: PORTS.firstStart, env: { ...SERVER_ENV, SEED_DEMO: "true" } });
  try {
    await settle(3000);
    report.firstStartRssMb = memory(server).totalMb;
  } finally {
    await server.stop();
  }
}

async function embedded() {
  const server = await startServerProcess({ port: PORTS.embedded, env: SERVER_ENV, templateDir: TEMPLATE_DIR });
  const figures: Record<string, unknown> = {};
  report.embedded = figures;
  try {
    await settle(2000);
    figures.rssIdleMb = memory(server).totalMb;
    const paths = await publicPaths(server.url);
    await warm(server.url, paths);
    figures.pages = [];
    for (const p of paths) (figures.pages as PageFigure[]).push(pageFigure(p, await load(server.url + p, 50, seconds(10))));
    figures.uncached = await uncachedRenders(server.url.replace("//localhost:", "//127.0.0.1:"), paths).catch((error) => String(error));
    Object.assign(figures, await burstWithNewVisitors(server, paths));
    figures.rssAfterBurstMb = memory(server).totalMb;
    const mixed = await mixedMinute(server, paths, `emb${Date.now()}`);
    figures.rssAfterMixedMb = memory(server).totalMb;
    // The embedded database is readable only once its server has stopped (graceful SIGTERM).
    server.process.kill("SIGTERM");
    await new Promise((resolve) => server.process.once("exit", resolve));
    const database = await openPglite(path.resolve(`.tmp/server-${PORTS.embedded}`));
    try {
      const { rows } = await database.pglite!.query<{ email: string }>("select email from leads where email like 'bench-%'");
      mixed.figure.acknowledgedMissing = missing(mixed.acknowledged, rows.map((row) => row.email));
    } finally {
      await database.close();
    }
    figures.mixed = mixed.figure;
  } finally {
    await server.stop();
  }
}

function benchDatabaseUrl(): string | undefined {
  return process.env.BENCH_DATABASE_URL ?? databaseOnTestServer("corretor_bench");
}

async function postgres() {
  const databaseUrl = benchDatabaseUrl();
  if (!databaseUrl) {
    report.postgres = "skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL";
    return;
  }
  if (!process.env.BENCH_DATABASE_URL) await recreateDatabase(databaseUrl);
  // As in production: one worker per core unless WEB_CONCURRENCY says otherwise.
  const workers = Number(process.env.WEB_CONCURRENCY ?? os.availableParallelism());
  const server = await startServerProcess({
    port: PORTS.postgres,
    env: { ...SERVER_ENV, DATABASE_URL: databaseUrl, SEED_DEMO: "true", WEB_CONCURRENCY: String(workers) },
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const figures: Record<string, unknown> = { workers };
  report.postgres = figures;
  try {
    await settle(2000);
    figures.rssIdle = memory(server);
    const paths = await publicPaths(server.url);
    await warm(server.url, paths);
    figures.pages = [];
    for (const p of paths) (figures.pages as PageFigure[]).push(pageFigure(p, await load(server.url + p, 50, seconds(10))));
    figures.uncached = await uncachedRenders(server.url.replace("//localhost:", "//127.0.0.1:"), paths).catch((error) => String(error));
    Object.assign(figures, await burstWithNewVisitors(server, paths));
    figures.rssAfterBurst = memory(server);

    const mixed = await mixedMinute(server, paths, `pg${Date.now()}`);
    const { rows } = await client.query<{ email: string }>("select email from leads where email like 'bench-%'");
    mixed.figure.acknowledgedMissing = missing(mixed.acknowledged, rows.map((row) => row.email));
    figures.mixed = mixed.figure;

    // An agency's catalogue: 2,000 more listings, copies of the demo ones under new codes.
    await client.query(
      `with demo as (select *, row_number() over (order by id) - 1 as rn, count(*) over () as total from properties)
       insert into properties (codigo, title, description, type, purpose, status, featured, price, area, bedrooms, bathrooms,
         parking_spaces, neighborhood, city, state, broker_partner, images)
       select 'BENCH-' || g, p.title, p.description, p.type, p.purpose, p.status, false, p.price + g, p.area, p.bedrooms,
         p.bathrooms, p.parking_spaces, p.neighborhood, p.city, p.state, p.broker_partner, p.images
       from generate_series(1, $1::int) g join demo p on p.rn = g % p.total`,
      [EXTRA_LISTINGS],
    );
    const { rows: counted } = await client.query<{ n: number }>("select count(*)::int as n from properties");
    await settle(2000);
    const html = await (await fetch(`${server.url}/imoveis`)).text();
    await warm(server.url, ["/imoveis"]);
    figures.catalogue = {
      listings: counted[0].n,
      imoveisHtmlBytes: Buffer.byteLength(html),
      ...pageFigure("/imoveis", await load(`${server.url}/imoveis`, 50, seconds(10))),
    };
    figures.rssEnd = memory(server);
  } finally {
    await client.end();
    await server.stop();
  }
}

function printTables() {
  // Each page's req/s as a share of the bare server's in this same run: the figure that compares
  // across machines (issue 26's goal: every cached page ≥ 25 % with p99 < 20 ms).
  const ceilingReqPerSec = (report.ceiling as PageFigure | undefined)?.reqPerSec;
  const share = (reqPerSec: number) => (ceilingReqPerSec ? `${Math.round((reqPerSec / ceilingReqPerSec) * 100)} %` : "-");
  const rows: string[][] = [["where", "page", "req/s", "of bare", "p50 ms", "p99 ms", "errors", "timeouts", "non-2xx"]];
  const add = (where: string, figure: PageFigure) =>
    rows.push([where, figure.path, String(figure.reqPerSec), share(figure.reqPerSec), String(figure.p50), String(figure.p99), String(figure.errors), String(figure.timeouts), String(figure.non2xx)]);
  if (report.ceiling) add("ceiling", report.ceiling as PageFigure);
  for (const where of ["embedded", "postgres"] as const) {
    const figures = report[where] as { pages?: PageFigure[]; burst?: BurstFigure; mixed?: MixedFigure; catalogue?: PageFigure & { listings: number; imoveisHtmlBytes: number } } | undefined;
    if (!figures || typeof figures !== "object") continue;
    for (const page of figures.pages ?? []) add(where, page);
    if (figures.burst) add(where, { ...figures.burst, path: "burst 200 conn", p50: NaN });
    if (figures.mixed) add(where, { ...figures.mixed, path: "mixed 200 conn + leads", p50: NaN });
    if (figures.catalogue) add(where, { ...figures.catalogue, path: `/imoveis (${figures.catalogue.listings} listings, ${Math.round(figures.catalogue.imoveisHtmlBytes / 1024)} KB)` });
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join("  "));
  const embeddedFigures = report.embedded as Record<string, unknown> | undefined;
  const postgresFigures = report.postgres as Record<string, unknown> | undefined;
  console.log(
    `\nRSS MB — first start (seeds photos): ${report.firstStartRssMb ?? "-"}; embedded idle ${embeddedFigures?.rssIdleMb ?? "-"}, after burst ${embeddedFigures?.rssAfterBurstMb ?? "-"}, after mixed ${embeddedFigures?.rssAfterMixedMb ?? "-"}`,
  );
  if (postgresFigures && typeof postgresFigures === "object") {
    const show = (value: unknown) => (value ? `${(value as { totalMb: number }).totalMb} (${(value as { processes: number[] }).processes.join(" + ")})` : "-");
    console.log(`RSS MB — PostgreSQL, primary + ${postgresFigures.workers} workers: idle ${show(postgresFigures.rssIdle)}, after burst ${show(postgresFigures.rssAfterBurst)}, end ${show(postgresFigures.rssEnd)}`);
  }
  for (const where of ["embedded", "postgres"]) {
    const uncached = (report[where] as { uncached?: { path: string; p50: number; p99: number }[] } | undefined)?.uncached;
    if (Array.isArray(uncached)) console.log(`Uncached renders (${where}), one at a time, ms p50/p99: ${uncached.map((u) => `${u.path} ${u.p50}/${u.p99}`).join(", ")}`);
  }
  for (const where of ["embedded", "postgres"]) {
    const visitors = (report[where] as { newVisitors?: NewVisitorsFigure } | undefined)?.newVisitors;
    if (visitors) console.log(`New visitors during the burst (${where}): ${visitors.arrived} arrived on new connections, ${visitors.answered} answered (first answer p50 ${visitors.p50} ms, p99 ${visitors.p99}, slowest ${visitors.max}), ${visitors.unanswered} not within 10 s`);
  }
  for (const where of ["embedded", "postgres"]) {
    const mixed = (report[where] as { mixed?: MixedFigure } | undefined)?.mixed;
    if (mixed) console.log(`Mixed minute (${where}): leads posted ${mixed.leadsPosted}, acknowledged ${mixed.leadsAcknowledged}, refused/failed ${mixed.leadErrors} ${JSON.stringify(mixed.leadFailures)}${mixed.leadErrors ? ` sent at second ${JSON.stringify(mixed.leadFailuresBySecond)}` : ""}, acknowledged but missing ${mixed.acknowledgedMissing}`);
  }
}

/** One part failing (a server that did not start) leaves its error in the report, not the others' figures unmeasured. */
async function part(name: string, run: () => Promise<void>) {
  try {
    await run();
  } catch (error) {
    console.error(`${name} failed:`, error);
    report[`${name}Error`] = String(error instanceof Error ? error.message : error).slice(0, 2000);
  }
}

await part("ceiling", ceiling);
if (ONLY !== "postgres") {
  await part("firstStart", firstStart);
  await part("embedded", embedded);
}
if (ONLY !== "embedded") await part("postgres", postgres);
fs.mkdirSync(".tmp/bench", { recursive: true });
fs.writeFileSync(".tmp/bench/latest.json", JSON.stringify(report, null, 2));
printTables();
console.log(`\nmachine: ${JSON.stringify(report.machine)}; commit ${report.commit}; written to .tmp/bench/latest.json`);
