import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { createApp } from "./app";

/**
 * `npm start` runs this (after building when needed, scripts/start.mjs): load the app bundle,
 * start the runtime (database, migrations, first-start seed and admin), serve HTTP, and on
 * SIGTERM/SIGINT stop cleanly so the embedded database is closed and its lock released.
 */

type Runtime = { env: { PORT: number; HOST: string; TRUST_PROXY: boolean; TRUST_PROXY_HOPS: number; publicUrl: string } };
type EntryExports = {
  startRuntime(): Promise<Runtime>;
  stopRuntime(): Promise<void>;
  stopLiveUpdates?(): Promise<void>;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.NODE_ENV ??= "production";

const build = (await import(pathToFileURL(path.join(root, "build/server/index.js")).href)) as ServerBuild;
const entry = build.entry.module as unknown as EntryExports;

let runtime: Runtime;
try {
  runtime = await entry.startRuntime();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const { env } = runtime;
const app = createApp({
  build,
  clientDir: path.join(root, "build/client"),
  publicUrl: env.publicUrl,
  trustProxy: env.TRUST_PROXY,
  trustProxyHops: env.TRUST_PROXY_HOPS,
});

const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  console.log(`[server] Site no ar em ${env.publicUrl} (escutando em ${info.address}:${info.port})`);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[server] ${signal}: encerrando...`);
  // Never hang: if something holds on, leave after 10 s anyway.
  setTimeout(() => process.exit(1), 10_000).unref();
  // Open event streams would keep server.close() waiting forever: end them first.
  await entry.stopLiveUpdates?.().catch((error) => console.error(error));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await entry.stopRuntime().catch((error) => console.error(error));
  console.log("[server] Encerrado.");
  process.exit(0);
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
