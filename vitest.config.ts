import { defineConfig } from "vitest/config";

/**
 * Unit tests sit beside the code (app/**\/*.test.ts[x]); integration tests (tests/integration)
 * call loaders and actions with real Requests on a migrated PGlite copied from a template, and on
 * PostgreSQL too when TEST_DATABASE_URL is set. Browser tests are Playwright's (tests/e2e).
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          include: ["app/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["tests/setup-dom.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          // Runs after the unit tests, with its own worker limit.
          sequence: { groupOrder: 1 },
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          // Two test files at a time on 2 cores lag the event loop for seconds: that is not the
          // overload the guard sheds (overload.test.ts tests the guard with its own bounds).
          env: { MAX_EVENT_LOOP_DELAY_MS: "0" },
          // Each file opens its own embedded database (~hundreds of MB): two at a time on 2 cores.
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
