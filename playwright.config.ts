import { defineConfig } from "@playwright/test";

/**
 * Browser tests against the production build on a fresh copy of a seeded data folder
 * (tests/e2e/serve.ts). The system Chromium only; never a downloaded browser. One worker: the
 * tests share one server, and the machine has two cores.
 */
export const E2E_PORT = 3210;
export const E2E_ADMIN = { email: "admin@teste.com.br", password: "senha-do-admin-1" };

export default defineConfig({
  testDir: "tests/e2e",
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
  webServer: {
    command: "npx tsx tests/e2e/serve.ts",
    url: `http://localhost:${E2E_PORT}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
