import { defineConfig } from "@playwright/test";

/**
 * Browser tests against the production build on a fresh copy of a seeded data folder
 * (tests/e2e/serve.ts). The system Chromium only; never a downloaded browser. One worker: the
 * tests share one server, and the machine has two cores (the specs with servers of their own run
 * in a second process beside it: OWN_SERVER_SPECS).
 */
export const E2E_PORT = 3210;
export const E2E_ADMIN = { email: "admin@teste.com.br", password: "senha-do-admin-1" };

/**
 * Specs that start every server they talk to (their own ports, data folders and databases) and
 * never touch the shared one. `npm test` runs them in a second Playwright process beside the
 * others (E2E_PART=own / E2E_PART=shared): much of their time is waiting on processes, which
 * the shared server's specs fill. A new spec that starts its own server belongs here only if it
 * never uses port 3210 (no relative URL without its own baseURL).
 */
export const OWN_SERVER_SPECS = [
  "accounts",
  "cache",
  "cache-fast-path",
  "cluster",
  "crash-and-restore",
  "database-faults",
  "hardening",
  "http-paths",
  "installable-crm",
  "lifecycle",
  "listing-alerts",
  "listing-media",
  "mail-after-crash",
  "multi-process",
  "multi-server",
  "portal-leads",
  "process-signals",
  "production-install",
  "settings",
  "tls-proxy",
  "working-day",
];
const ownServerFiles = OWN_SERVER_SPECS.map((name) => `**/${name}.spec.ts`);
const part = process.env.E2E_PART as "own" | "shared" | undefined;

export default defineConfig({
  testDir: "tests/e2e",
  // Each part its own results folder: a Playwright run empties its folder when it starts.
  outputDir: part ? `test-results/${part}` : "test-results",
  ...(part === "own" ? { testMatch: ownServerFiles } : part === "shared" ? { testIgnore: ownServerFiles } : {}),
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    locale: "pt-BR",
    timezoneId: "America/Fortaleza",
    // Recording a trace of every test (to keep the failed ones') cost a fifth of the suite's time,
    // which CI's 30 minutes cannot spare; a failure still writes its page snapshot
    // (error-context.md). Debug one with `PW_TRACE=on npx playwright test <file>`.
    trace: (process.env.PW_TRACE as "on" | "off" | "retain-on-failure" | undefined) ?? "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
      ],
    },
  },
  webServer: part === "own" ? undefined : {
    command: "npx tsx tests/e2e/serve.ts",
    url: `http://localhost:${E2E_PORT}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
