import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { sql } from "drizzle-orm";
import { migrateDatabase, openPostgres } from "~/db/client.server";
import { anonymizeLeads, anonymizeLeadsInTx } from "~/features/privacy/anonymize.server";
import { personLeadIds } from "~/features/privacy/person.server";
import { countExpiredLeads, runRetention } from "~/features/privacy/retention.server";
import { startServerProcess, type ServerProcess } from "../tests/helpers/server-process";
import { decadeCounts, fillDecade } from "./decade-data";
import { BENCH_SERVER_ENV, databaseOnTestServer, percentile, recreateDatabase } from "./helpers";

/**
 * Ten years of a busy broker (issue 26, item 2; docs/benchmarks/ten-years.md). Fills a PostgreSQL
 * database with bench/decade-data.ts, starts the production server on it and measures, signed in
 * as an admin:
 *  1. the leads export of all 60,000 leads, CSV and XLSX, on the fresh server: time, size and
 *     the growth of the server's RSS (every process) while it streams;
 *  2. every CRM screen, one request at a time and then with 10 requests always in flight on that
 *     one screen (p50/p95/p99, req/s, errors: ten people pressing reload together, the worst case);
 *  2b. a working day: 10 staff at once, each opening a screen from the day's mix, reading it for
 *     DECADE_THINK_MS (default 2,000 ms, a person looks before clicking) and opening the next, for
 *     DECADE_DAY_SECONDS (default 60): p50/p95/p99 per screen and over all;
 *  3. a day's retention round (period 119 months), one batch of the worst day's round (period
 *     lowered to 24 months: most of the decade due) and one person's anonymisation, while a
 *     visitor reads uncached public pages and posts a lead every half second: the durations, and
 *     what the visitor got meanwhile.
 * Figures, never assertions. The database: DECADE_DATABASE_URL (recreated: its data is replaced),
 * else TEST_DATABASE_URL's server with a database named bench_decade. DECADE_SECONDS per screen
 * (default 10). Writes .tmp/bench/decade.json.
 */

const SECONDS = Number(process.env.DECADE_SECONDS ?? 10);
const CONNECTIONS = 10;
const PORT = 3560;
const ADMIN = { email: "admin@decada.test", password: "senha-da-decada-26" };
const SERVER_ENV = {
  ...BENCH_SERVER_ENV,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
};

function databaseUrl(): string {
  const url = process.env.DECADE_DATABASE_URL ?? databaseOnTestServer("bench_decade");
  if (!url) throw new Error("Set DECADE_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL).");
  return url;
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : 0;
}

/** The server's processes: the primary and its cluster workers (node children). */
function serverPids(server: ServerProcess): number[] {
  const pid = server.process.pid!;
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...children.filter((child) => path.basename(fs.readlinkSync(`/proc/${child}/exe`)) === "node")];
  } catch {
    return [pid];
  }
}

const totalRss = (pids: number[]) => pids.reduce((sum, pid) => sum + rssMb(pid), 0);

type ScreenFigure = {
  screen: string;
  reqPerSec: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  errors: number;
};

/** 10 staff on one screen for SECONDS: every answer's time (autocannon's histogram has no p95). */
function measure(
  base: string,
  cookie: string,
  screen: string,
  requests: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
  }[],
): Promise<ScreenFigure> {
  const times: number[] = [];
  let errors = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 30,
        headers: { cookie, "accept-encoding": "br, gzip" },
        requests,
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          screen,
          reqPerSec: +(times.length / result.duration).toFixed(1),
          p50: Math.round(percentile(times, 50)),
          p95: Math.round(percentile(times, 95)),
          p99: Math.round(percentile(times, 99)),
          requests: times.length,
          errors: errors + result.errors + result.timeouts,
        });
      },
    );
    instance.on("response", (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      if (status >= 400) errors++;
    });
  });
}

async function signIn(base: string, publicUrl: string): Promise<string> {
  const response = await fetch(`${base}/auth`, {
    method: "POST",
    headers: { origin: publicUrl },
    body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }),
    redirect: "manual",
  });
  if (response.status !== 302) throw new Error(`sign-in answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** One download, sampling the server's RSS every 20 ms: growth is the peak over the start. */
async function exportFigure(base: string, cookie: string, server: ServerProcess, format: "csv" | "xlsx") {
  const pids = serverPids(server);
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = totalRss(pids);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, totalRss(pids))), 20);
  const started = performance.now();
  const response = await fetch(`${base}/crm/leads/exportar?formato=${format}`, {
    headers: { cookie },
  });
  let bytes = 0;
  let newlines = 0;
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    bytes += chunk.length;
    if (format === "csv") for (const byte of chunk as Uint8Array) if (byte === 10) newlines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return {
    format,
    status: response.status,
    seconds: +seconds.toFixed(1),
    mb: +(bytes / 2 ** 20).toFixed(1),
    ...(format === "csv" ? { rows: newlines - 1 } : {}),
    rssBeforeMb: Math.round(before),
    rssPeakMb: Math.round(peak),
    rssGrowthMb: Math.round(peak - before),
  };
}

/** A visitor while `work` runs: uncached public pages (a session cookie skips the page cache) and a lead every 500 ms. */
async function withVisitor<T>(base: string, publicUrl: string, listingIds: string[], work: () => Promise<T>) {
  const pageTimes: number[] = [];
  const leadTimes: number[] = [];
  let failures = 0;
  let running = true;
  const browse = async () => {
    for (let i = 0; running; i++) {
      const started = performance.now();
      const target = i % 2 ? `/imoveis/${listingIds[i % listingIds.length]}` : `/imoveis?bairro=Ponta+Negra&pagina=${1 + (i % 5)}`;
      try {
        const response = await fetch(base + target, {
          headers: { cookie: "better-auth.session_token=visitante" },
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        if (!response.ok) failures++;
      } catch {
        failures++;
      }
      pageTimes.push(performance.now() - started);
    }
  };
  const post = async () => {
    for (let n = 0; running; n++) {
      const started = performance.now();
      try {
        const response = await fetch(`${base}/contato.data`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: publicUrl,
          },
          body: new URLSearchParams({
            name: `Visitante ${n}`,
            email: `visitante${n}@exemplo.com`,
            phone: "(84) 99999-0000",
            message: "Tenho interesse.",
          }),
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        if (!response.ok) failures++;
      } catch {
        failures++;
      }
      leadTimes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  const visitor = Promise.all([browse(), post()]);
  const started = performance.now();
  const result = await work();
  const seconds = +((performance.now() - started) / 1000).toFixed(1);
  running = false;
  await visitor;
  const summary = (times: number[]) => ({
    answered: times.length,
    p50: Math.round(percentile(times, 50)),
    max: Math.round(Math.max(...times)),
  });
  return {
    seconds,
    result,
    visitor: { pages: summary(pageTimes), leads: summary(leadTimes), failures },
  };
}

const url = databaseUrl();
const report: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model,
    memoryGb: +(os.totalmem() / 2 ** 30).toFixed(1),
    load1: os.loadavg()[0],
  },
  connections: CONNECTIONS,
  secondsPerScreen: SECONDS,
};

const PARTS = (process.env.DECADE_PARTS ?? "screens,day,exports,jobs").split(",");
const THINK_MS = Number(process.env.DECADE_THINK_MS ?? 2000);
const DAY_SECONDS = Number(process.env.DECADE_DAY_SECONDS ?? 60);
if (process.env.DECADE_REUSE === "1") {
  console.log(`ten years on ${new URL(url).pathname.slice(1)}: reusing the data there`);
  const migrator = await openPostgres(url, 2);
  await migrateDatabase(migrator);
  await migrator.close();
} else {
  console.log(`ten years on ${new URL(url).pathname.slice(1)}: generating…`);
  await recreateDatabase(url);
  const migrator = await openPostgres(url, 2);
  await migrateDatabase(migrator);
  await migrator.close();
  const generated = performance.now();
  report.generatorSteps = await fillDecade(url, (line) => console.log(line));
  report.generatorSeconds = Math.round((performance.now() - generated) / 1000);
}
report.counts = await decadeCounts(url);
console.log(report.counts);

const workers = os.availableParallelism();
const server = await startServerProcess({
  port: PORT,
  env: { ...SERVER_ENV, DATABASE_URL: url, WEB_CONCURRENCY: String(workers) },
});
const base = server.url.replace("//localhost:", "//127.0.0.1:");
report.workers = workers;
const handle = await openPostgres(url, 4);
try {
  const cookie = await signIn(base, server.url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const ids = async (query: string) => (await client.query<{ id: string }>(query)).rows.map((row) => row.id);
  const leadIds = await ids("select id from leads order by hashtext(id::text) limit 40");
  const listingIds = await ids("select id from properties where status = 'disponivel' order by hashtext(id::text) limit 40");
  const phones = (await client.query<{ phone: string }>("select phone from leads order by hashtext(id::text) limit 40")).rows.map((row) => row.phone);
  const repeat = (await client.query<{ id: string }>("select min(id::text) as id from leads group by phone having count(*) > 1 limit 1")).rows[0].id;
  await client.end();

  const today = new Date().toISOString().slice(0, 10);
  const tenYearsAgo = new Date(Date.now() - 3659 * 86_400_000).toISOString().slice(0, 10);
  type Request = {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
  };
  const get = (...paths: string[]): Request[] => paths.map((p) => ({ path: p }));
  const screens: [string, Request[]][] = [
    ["dashboard", get("/crm")],
    ["leads table", get("/crm/leads", "/crm/leads?pagina=2", "/crm/leads?pagina=600")],
    ["leads search (name)", get("/crm/leads?busca=mariana", "/crm/leads?busca=souza+lima", "/crm/leads?busca=rafael")],
    [
      "leads search (phone)",
      phones.slice(0, 10).map((phone) => ({
        path: `/crm/leads?busca=${encodeURIComponent(phone.slice(-9))}`,
      })),
    ],
    ["leads filter (status)", get("/crm/leads?status=perdido", "/crm/leads?status=novo&pagina=3", "/crm/leads?status=em_atendimento")],
    ["board", get("/crm/leads?vista=quadro", "/crm/leads?vista=quadro&busca=silva")],
    ["lead page", leadIds.map((id) => ({ path: `/crm/leads/${id}` }))],
    ["visits", get("/crm/visitas")],
    ["properties", get("/crm/imoveis", "/crm/imoveis?busca=ponta+negra", "/crm/imoveis?pagina=100")],
    ["reports: month", get("/crm/relatorios?periodo=mes")],
    ["reports: year", get("/crm/relatorios?periodo=ano")],
    ["reports: ten years", get(`/crm/relatorios?periodo=personalizado&de=${tenYearsAgo}&ate=${today}`)],
    ["audit trail", get("/crm/auditoria", "/crm/auditoria?pagina=2", "/crm/auditoria?pagina=500")],
    [
      "privacy search",
      phones.slice(0, 10).map((phone) => ({
        method: "POST",
        path: "/crm/privacidade",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: server.url,
        },
        body: new URLSearchParams({ intent: "search", q: phone }).toString(),
      })),
    ],
    ["privacy: a person", leadIds.slice(0, 10).map((id) => ({ path: `/crm/privacidade?lead=${id}` }))],
  ];
  if (PARTS.includes("exports")) report.exports = [await exportFigure(base, cookie, server, "csv"), await exportFigure(base, cookie, server, "xlsx")];
  console.log("exports:", report.exports);

  const figures: ScreenFigure[] = [];
  for (const [screen, requests] of PARTS.includes("screens") ? screens : []) {
    // One pass first: the first render of a route loads its module. A 503 is the overload guard
    // still draining the previous screen's queries: wait for it, as a person would.
    for (const request of requests.slice(0, 3)) {
      for (let attempt = 0; ; attempt++) {
        const init = { method: request.method ?? "GET", headers: { cookie, ...request.headers }, body: request.body, redirect: "manual" as const };
        const response = await fetch(base + request.path, init);
        await response.arrayBuffer();
        if (response.status === 503 && attempt < 60) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          continue;
        }
        if (response.status >= 400) throw new Error(`${screen}: ${request.path} answered ${response.status}`);
        break;
      }
    }
    // One staff member alone first (what the screen costs), then ten at once.
    const alone: number[] = [];
    for (let i = 0; i < 6; i++) {
      const request = requests[i % requests.length];
      const started = performance.now();
      const init = { method: request.method ?? "GET", headers: { cookie, ...request.headers }, body: request.body, redirect: "manual" as const };
      await (await fetch(base + request.path, init)).arrayBuffer();
      alone.push(performance.now() - started);
    }
    const figure = { ...(await measure(base, cookie, screen, requests)), aloneP50: Math.round(percentile(alone, 50)) };
    figures.push(figure);
    console.log(
      `  ${screen.padEnd(24)} alone ${String(figure.aloneP50).padStart(5)} ms | 10 staff: p50 ${String(figure.p50).padStart(5)} ms  p95 ${String(figure.p95).padStart(5)} ms  p99 ${String(figure.p99).padStart(5)} ms  ${String(figure.reqPerSec).padStart(6)} req/s  errors ${figure.errors}`,
    );
  }
  report.screens = figures;

  if (PARTS.includes("day")) {
    // How often each screen is opened in a day of CRM work (weights): mostly leads and the lead page.
    const mix: [string, number][] = [
      ["dashboard", 3],
      ["leads table", 3],
      ["leads search (name)", 1],
      ["leads search (phone)", 1],
      ["leads filter (status)", 1],
      ["board", 2],
      ["lead page", 6],
      ["visits", 2],
      ["properties", 2],
      ["reports: month", 0.5],
      ["reports: year", 0.25],
      ["reports: ten years", 0.1],
      ["audit trail", 0.3],
      ["privacy search", 0.2],
      ["privacy: a person", 0.2],
    ];
    const total = mix.reduce((sum, [, weight]) => sum + weight, 0);
    const byScreen = new Map(screens);
    const times = new Map<string, number[]>();
    let errors = 0;
    let seed = 26;
    // A fixed sequence (not Math.random) so that two runs open the same screens.
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = () => {
      let r = next() * total;
      for (const [screen, weight] of mix) if ((r -= weight) < 0) return screen;
      return mix[0][0];
    };
    const ends = performance.now() + DAY_SECONDS * 1000;
    const staff = async (member: number) => {
      // Staff do not all click at the same instant.
      await new Promise((resolve) => setTimeout(resolve, (member * THINK_MS) / 10));
      while (performance.now() < ends) {
        const screen = pick();
        const requests = byScreen.get(screen)!;
        const request = requests[Math.floor(next() * requests.length)];
        const started = performance.now();
        try {
          const init = { method: request.method ?? "GET", headers: { cookie, "accept-encoding": "br, gzip", ...request.headers }, body: request.body, redirect: "manual" as const };
          const response = await fetch(base + request.path, { ...init, signal: AbortSignal.timeout(30_000) });
          await response.arrayBuffer();
          if (response.status >= 400) errors++;
        } catch {
          errors++;
        }
        const list = times.get(screen) ?? [];
        list.push(performance.now() - started);
        times.set(screen, list);
        await new Promise((resolve) => setTimeout(resolve, THINK_MS));
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, member) => staff(member)));
    const all = [...times.values()].flat();
    const summary = (list: number[]) => ({ requests: list.length, p50: Math.round(percentile(list, 50)), p95: Math.round(percentile(list, 95)), p99: Math.round(percentile(list, 99)) });
    report.staffDay = {
      staff: CONNECTIONS,
      thinkMs: THINK_MS,
      seconds: DAY_SECONDS,
      errors,
      all: summary(all),
      screens: mix.filter(([screen]) => times.has(screen)).map(([screen]) => ({ screen, ...summary(times.get(screen)!) })),
    };
    console.log(`a working day: ${CONNECTIONS} staff, ${THINK_MS} ms to read each screen, ${DAY_SECONDS} s: all ${JSON.stringify(summary(all))}, errors ${errors}`);
    for (const [screen] of mix) {
      const list = times.get(screen);
      if (list) console.log(`  ${screen.padEnd(24)} ${JSON.stringify(summary(list))}`);
    }
  }


  if (PARTS.includes("jobs")) await jobs();
  report.databaseSizeAfter = (await decadeCounts(url)).databaseSize;
  async function jobs() {
    // As the server runs them: on the long-work connections (runtime.server.ts), whose statements may run for minutes.
    const db = handle.longDb;
    const setMonths = (months: number) => db.execute(sql`update settings set value = ${String(months)}::jsonb where key = 'retention_months'`);
    // A day's round: the period at 119 months, so the leads of the oldest month are due.
    await setMonths(119);
    const daily = await withVisitor(base, server.url, listingIds, () => runRetention(db));
    report.retentionDaily = { months: 119, ...daily };
    console.log("retention, a day's round:", JSON.stringify(report.retentionDaily));
    // The worst day: the period lowered to 24 months, most of the decade due at once. One batch of
    // the round (as runRetention runs each), timed; the whole round is that times the batches.
    await setMonths(24);
    const due = await countExpiredLeads(db);
    const batch = await withVisitor(base, server.url, listingIds, () =>
      db.transaction(async (tx) => {
        const found = (await tx.execute(
          sql`select id from leads where phone <> '00000000000' and created_at < now() - interval '24 months' order by created_at, id limit 200 for update skip locked`,
        )) as unknown as { rows: { id: string }[] };
        return anonymizeLeadsInTx(tx, null, found.rows.map((row) => row.id), { action: "privacy.retention", months: 24 });
      }),
    );
    report.retentionWorstDay = { months: 24, due, oneBatch: batch, batches: Math.ceil(due / 200) };
    console.log("retention, the worst day (one batch of 200):", JSON.stringify(report.retentionWorstDay));
    await setMonths(120);

    const anchor = repeat;
    const personIds = await personLeadIds(db, anchor);
    const anonymisation = await withVisitor(base, server.url, listingIds, () =>
      anonymizeLeads(db, { id: "bench", email: ADMIN.email, name: "Bench" }, anchor, personIds),
    );
    report.anonymisation = anonymisation;
    console.log("anonymisation:", JSON.stringify(anonymisation));
  }
} finally {
  await handle.close();
  await server.stop();
}

fs.mkdirSync(".tmp/bench", { recursive: true });
fs.writeFileSync(".tmp/bench/decade.json", JSON.stringify(report, null, 2));
console.log("written .tmp/bench/decade.json");
