// Lighthouse mobile (its default: slow 4G, 4× CPU slowdown) on every public page, 3 runs each,
// printing the medians and writing them to .tmp/lighthouse.json. Builds nothing: run
// `npx react-router build && npx tsx tests/e2e/prepare-template.ts` first (under the e2e lock, as
// everything that needs the CPU to itself). Usage:
//   node scripts/lighthouse.mjs                 start the production server on a copy of the e2e template
//   node scripts/lighthouse.mjs http://host:port   audit a server that is already running
// Env: LH_RUNS (3), LH_PORT (3571), LH_PAGES (comma-separated paths; "/imoveis/:id" is a listing), CHROMIUM_PATH.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const runs = Number(process.env.LH_RUNS ?? 3);
const port = Number(process.env.LH_PORT ?? 3571);
const out = ".tmp/lighthouse.json";
let base = process.argv[2];
let server;

async function waitFor(url, ms = 60000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

if (!base) {
  const template = path.resolve(".tmp/e2e-template");
  if (!fs.existsSync(template)) throw new Error("No .tmp/e2e-template: run `npx tsx tests/e2e/prepare-template.ts` first.");
  if (!fs.existsSync("build/server")) throw new Error("No build/: run `npx react-router build` first.");
  const dataDir = path.resolve(".tmp/lighthouse-data");
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.cpSync(template, dataDir, { recursive: true });
  fs.rmSync(path.join(dataDir, "pglite.lock"), { force: true });
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["scripts/start.mjs"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      SEED_DEMO: "false",
      ADMIN_EMAIL: "lighthouse@example.com",
      ADMIN_PASSWORD: "lighthouse-admin-password",
      LOG_LEVEL: "warn",
    },
  });
  await waitFor(`${base}/healthz`);
}

// A real listing's page: the first link to /imoveis/<id> on the list.
const listHtml = await (await fetch(`${base}/imoveis`)).text();
const propertyPath = listHtml.match(/href="(\/imoveis\/[^"?#]+)"/)?.[1];
if (!propertyPath) throw new Error("No listing link on /imoveis: is the data folder seeded?");
// In LH_PAGES, "/imoveis/:id" stands for that listing's page.
const pages = process.env.LH_PAGES?.split(",").map((page) => (page === "/imoveis/:id" ? propertyPath : page)) ?? [
  "/",
  "/imoveis",
  propertyPath,
  "/sobre",
  "/contato",
  "/agendar-visita",
  "/privacidade",
  "/favoritos",
  "/auth",
  "/pagina-que-nao-existe",
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
});
const results = [];
try {
  for (const pagePath of pages) {
    const samples = [];
    let retries = 2;
    for (let run = 0; run < runs; run++) {
      const { lhr } = await lighthouse(base + pagePath, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility"],
      });
      // A trace Chromium failed to record (NO_NAVSTART, seen once in 30 runs) is Lighthouse's
      // hiccup, not the page's: that run is made again.
      if (lhr.runtimeError && lhr.runtimeError.code !== "ERRORED_DOCUMENT_REQUEST" && retries-- > 0) {
        run--;
        continue;
      }
      // Lighthouse refuses to score a document answered with an error status (the 404 page:
      // ERRORED_DOCUMENT_REQUEST); say so and go on with the other pages.
      if (lhr.runtimeError) {
        samples.push({ error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` });
        break;
      }
      const scripts = lhr.audits["resource-summary"].details.items.find((item) => item.resourceType === "script");
      samples.push({
        performance: Math.round(lhr.categories.performance.score * 100),
        accessibility: Math.round(lhr.categories.accessibility.score * 100),
        lcpMs: Math.round(lhr.audits["largest-contentful-paint"].numericValue),
        fcpMs: Math.round(lhr.audits["first-contentful-paint"].numericValue),
        tbtMs: Math.round(lhr.audits["total-blocking-time"].numericValue),
        cls: Number(lhr.audits["cumulative-layout-shift"].numericValue.toFixed(3)),
        jsKB: Number(((scripts?.transferSize ?? 0) / 1024).toFixed(1)),
        // What blocked the main thread (simulated, after FCP counts toward TBT).
        longTasks: (lhr.audits["long-tasks"]?.details?.items ?? []).slice(0, 5).map((task) => ({
          url: task.url,
          startMs: Math.round(task.startTime),
          durationMs: Math.round(task.duration),
        })),
        failedA11y: Object.values(lhr.audits)
          .filter((audit) => lhr.categories.accessibility.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0) && audit.score === 0)
          .map((audit) => audit.id),
      });
    }
    if (samples[0].error) {
      results.push({ path: pagePath, error: samples[0].error });
      console.log(`${pagePath.padEnd(28)} not scored: ${samples[0].error.split(".")[0]}`);
      continue;
    }
    const summary = { path: pagePath, runs: samples };
    for (const key of ["performance", "accessibility", "lcpMs", "fcpMs", "tbtMs", "cls", "jsKB"]) summary[key] = median(samples.map((s) => s[key]));
    results.push(summary);
    const failed = [...new Set(samples.flatMap((s) => s.failedA11y))];
    console.log(
      `${pagePath.padEnd(28)} perf ${String(summary.performance).padStart(3)}  LCP ${String(summary.lcpMs).padStart(5)} ms  TBT ${String(summary.tbtMs).padStart(4)} ms  ` +
        `JS ${String(summary.jsKB).padStart(5)} KB  a11y ${summary.accessibility}  (perf runs ${samples.map((s) => s.performance).join("/")})` +
        (failed.length ? `  a11y failures: ${failed.join(", ")}` : ""),
    );
  }
} finally {
  await chrome.kill();
  server?.kill("SIGTERM");
}
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), base, runs, pages: results }, null, 2));
console.log(`wrote ${out}`);
