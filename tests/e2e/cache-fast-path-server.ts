import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { TEMPLATE_DIR } from "./template";

/**
 * For tests/e2e/cache-fast-path.spec.ts: the production build on a copy of the seeded data, one
 * runtime and three apps on PORT, PORT+1, PORT+2 — with the cache hit's fast path, without it
 * (the whole chain, as before the fast path existed) on the same cache entries, and with the fast path and an overload
 * bound of one request in flight. Run with tsx, as `npm start` runs the server (ESM, one copy of
 * React Router for the build and server/app.ts).
 */
const port = Number(process.env.PORT);
const dataDir = path.resolve(`.tmp/cache-fast-path-${port}`);
fs.rmSync(dataDir, { recursive: true, force: true });
fs.cpSync(TEMPLATE_DIR, dataDir, { recursive: true });
fs.rmSync(path.join(dataDir, "pglite.lock"), { force: true });
const publicUrl = `http://localhost:${port}`;
Object.assign(process.env, { NODE_ENV: "production", DATA_DIR: dataDir, PUBLIC_URL: publicUrl, SEED_DEMO: "false", LOG_LEVEL: "warn" });
delete process.env.DATABASE_URL;

const build = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as ServerBuild;
const entry = build.entry.module as unknown as { startRuntime(): Promise<unknown>; stopRuntime(): Promise<void> };
await entry.startRuntime();
const { createApp } = await import("../../server/app");
const { PageCache } = await import("../../server/page-cache");
const pageCacheMaxBytes = 32 * 1024 * 1024;
const options = { build, clientDir: path.resolve("build/client"), publicUrl, trustProxy: false, pageCacheMaxBytes };
// The first two share their entries: what differs is only how a hit is answered.
const pageCache = new PageCache({ maxBytes: pageCacheMaxBytes });
const apps = [createApp({ ...options, pageCache }), createApp({ ...options, pageCache, cacheFastPath: false })];
process.env.MAX_REQUESTS_IN_FLIGHT = "1";
apps.push(createApp(options));
const servers = await Promise.all(
  apps.map((app, i) => new Promise<ReturnType<typeof serve>>((resolve) => {
    const server = serve({ fetch: app.fetch, port: port + i, hostname: "127.0.0.1" }, () => resolve(server));
  })),
);
console.log("ready");
process.on("SIGTERM", async () => {
  for (const server of servers) server.close();
  await entry.stopRuntime();
  process.exit(0);
});
