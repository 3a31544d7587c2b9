import cluster from "node:cluster";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import { EnvError, parseEnv, webConcurrency } from "../app/lib/env.server";
import { addListenerCopies, type ListenerCopies } from "./listener-copies";
import { runPrimary } from "./primary";

/**
 * `npm start` runs this (after building when needed, scripts/start.mjs): load the app bundle,
 * start the runtime (database, migrations, first-start seed and admin), serve HTTP, and on
 * SIGTERM/SIGINT stop gracefully: stop accepting, end the event streams, let requests in flight
 * finish (for a bounded time), then close the database and release its lock.
 */

// Everything this process writes (database files, photos, backups, the auth secret) is for this
// user only; DATA_DIR itself is made 0700 by the runtime.
process.umask(0o077);

type Runtime = { env: { PORT: number; HOST: string; TRUST_PROXY: boolean; TRUST_PROXY_HOPS: number; TRUSTED_PROXIES: string[]; publicUrl: string } };
type EntryExports = {
  startRuntime(): Promise<Runtime>;
  stopRuntime(): Promise<void>;
  stopLiveUpdates?(): Promise<void>;
  getLogger(): Logger;
  errorFields(error: unknown): Record<string, unknown>;
};

/** How long requests in flight get to finish after SIGTERM before their connections are cut. */
const DRAIN_MS = 8_000;
/** The last resort: whatever still holds on, the process leaves (with status 1). */
const HARD_EXIT_MS = 15_000;
/**
 * Extra handles on the listening socket (server/listener-copies.ts says why): with 16 in all a
 * saturated process takes in up to 16 new connections per event-loop iteration instead of one.
 */
const LISTENER_COPIES = 15;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.NODE_ENV ??= "production";

if (cluster.isPrimary) {
  let workers = 1;
  try {
    workers = webConcurrency(parseEnv(process.env), os.availableParallelism());
  } catch (error) {
    // The same message the runtime would give; a worker never starts with a bad configuration.
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  if (workers > 1) {
    await runPrimary(workers);
    // The primary's work is only supervising: nothing below runs in it.
    await new Promise(() => {});
  }
}

// From here on a stop signal is ours to handle, even while the runtime starts (migrations, the
// first-start seed): until the server is up it is remembered, and the server stops as soon as
// the runtime has started, so the database closes cleanly and its lock goes (issue 21).
let stopServer: ((signal: string) => void) | undefined = undefined;
let stopAskedFor: string | undefined;
const onStopSignal = (signal: string) => {
  if (stopServer) stopServer(signal);
  else if (!stopAskedFor) {
    stopAskedFor = signal;
    setTimeout(() => process.exit(1), HARD_EXIT_MS).unref();
  }
};
process.on("SIGTERM", () => onStopSignal("SIGTERM"));
process.on("SIGINT", () => onStopSignal("SIGINT"));

const build = (await import(pathToFileURL(path.join(root, "build/server/index.js")).href)) as ServerBuild;
const entry = build.entry.module as unknown as EntryExports;
const log = entry.getLogger().child({ component: "server" });

let runtime: Runtime;
try {
  runtime = await entry.startRuntime();
} catch (error) {
  // Our own refusals (a bad variable, a data folder in use) say what to do in their message.
  log.fatal(error instanceof Error ? { err: { name: error.name } } : {}, error instanceof Error ? error.message : String(error));
  process.exit(1);
}
if (stopAskedFor) {
  log.info({ signal: stopAskedFor }, "encerrando...");
  await entry.stopRuntime().catch((error) => log.error(entry.errorFields(error), "runtime did not stop cleanly"));
  log.info("Encerrado.");
  process.exit(0);
}

const { env } = runtime;
// Loaded here, not at the top: a cluster primary never needs the HTTP app (nor its memory).
const { createApp } = await import("./app");
const app = createApp({
  build,
  clientDir: path.join(root, "build/client"),
  publicUrl: env.publicUrl,
  trustProxy: env.TRUST_PROXY,
  trustProxyHops: env.TRUST_PROXY_HOPS,
  trustedProxies: env.TRUSTED_PROXIES,
});

let stopping = false;
let listenerCopies: ListenerCopies | undefined;
const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  log.info({ address: info.address, port: info.port }, `Site no ar em ${env.publicUrl}`);
  // Cluster workers do not accept for themselves: the primary hands them connections.
  if (cluster.isWorker || stopping) return;
  listenerCopies = addListenerCopies(server, LISTENER_COPIES);
  listenerCopies.ready.catch((error) => {
    // Only the rate of new connections under saturation suffers: the site still serves.
    if (!stopping) log.warn(entry.errorFields(error), "listening socket copies not made");
  });
}) as Server;
if (cluster.isWorker) {
  // Which worker answered: the cluster's own small number, nothing about the machine. Tests and
  // the bench use it to see requests spread over the workers.
  const worker = String(cluster.worker!.id);
  server.prependListener("request", (_request, response) => response.setHeader("X-Worker", worker));
}

/** Stops listening and resolves once every connection has ended, or after `ms` by cutting them. */
function drain(http: Server, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearInterval(idleSweep);
      clearTimeout(deadline);
      resolve();
    };
    // Each listening handle (the server's and its copies) reports closed once the connections it
    // accepted have ended; the HTTP server serves and sweeps them all.
    const copiesClosed = listenerCopies?.close() ?? Promise.resolve();
    const serverClosed = new Promise<void>((done) => http.close(() => done()));
    void Promise.all([copiesClosed, serverClosed]).then(finish);
    // A keep-alive connection that goes idle after its last answer would hold close() open.
    http.closeIdleConnections();
    const idleSweep = setInterval(() => http.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      log.warn("requests still running after the grace period: closing their connections");
      http.closeAllConnections();
      finish();
    }, ms);
  });
}

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "encerrando...");
  setTimeout(() => process.exit(1), HARD_EXIT_MS).unref();
  // Open event streams would keep their connections busy until the deadline: end them first.
  const streamsEnded = entry.stopLiveUpdates?.().catch((error) => log.error(entry.errorFields(error), "live streams not ended"));
  await Promise.all([streamsEnded, drain(server, DRAIN_MS)]);
  // Only now, with no request left, the database closes (and the embedded one's lock goes).
  await entry.stopRuntime().catch((error) => log.error(entry.errorFields(error), "runtime did not stop cleanly"));
  log.info("Encerrado.");
  process.exit(0);
}

stopServer = (signal) => void shutdown(signal);
// A signal that came while the app was being loaded above.
if (stopAskedFor) stopServer(stopAskedFor);
