import fs from "node:fs";
import { E2E_ADMIN, E2E_PORT } from "../../playwright.config";
import { RUN_DIR, TEMPLATE_DIR } from "./template";
import { E2E_TILE_URL, startTileServer } from "./tile-server";

/** Playwright's web server: the production build on a fresh copy of the seeded template. */
fs.rmSync(RUN_DIR, { recursive: true, force: true });
fs.cpSync(TEMPLATE_DIR, RUN_DIR, { recursive: true });
fs.rmSync(`${RUN_DIR}/pglite.lock`, { force: true });

Object.assign(process.env, {
  NODE_ENV: "production",
  DATA_DIR: RUN_DIR,
  PORT: String(E2E_PORT),
  HOST: "127.0.0.1",
  PUBLIC_URL: `http://localhost:${E2E_PORT}`,
  SEED_DEMO: "false",
  // Every spec books visits and sends messages from this one address: the default 10 an hour would
  // refuse the later ones (hardening.spec.ts checks the limit on a server of its own).
  LEAD_LIMIT_PER_HOUR: "200",
  ADMIN_EMAIL: E2E_ADMIN.email,
  ADMIN_PASSWORD: E2E_ADMIN.password,
  // One JSON line per request would bury the test report; tests that read the log start their own server.
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  // Map tiles from the test's own tile server: no test reaches the internet (issue 22, item 4).
  MAP_TILE_URL: E2E_TILE_URL,
  MAP_ATTRIBUTION: "© colaboradores do OpenStreetMap",
});
await startTileServer();
await import("../../server/main");
