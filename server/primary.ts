import cluster, { type Worker } from "node:cluster";
import pino from "pino";

/**
 * The cluster's primary (WEB_CONCURRENCY > 1, PostgreSQL only): forks the workers that share the
 * port, starts a new one when a worker dies, and on SIGTERM/SIGINT passes the signal to every
 * worker and leaves once they have all finished their graceful stop (server/main.ts).
 *
 * What stays correct across workers, each a full copy of the app on the shared database:
 * - live updates: each worker LISTENs on its own connection and feeds its own streams;
 * - per-process caches are dropped by those same change events, in every worker;
 * - rate limits are counters in the database, not in memory;
 * - e-mail is claimed with FOR UPDATE SKIP LOCKED; scheduled backups take an advisory lock;
 * - migrations, the demo seed and the first admin run under an advisory lock at start-up.
 */

/** Like the workers' own limit (main.ts HARD_EXIT_MS), plus a moment for them to report. */
const STOP_DEADLINE_MS = 17_000;
/** A worker that dies sooner than this after starting is crashing, not dying once. */
const EARLY_DEATH_MS = 10_000;
const RESTART_DELAYS_MS = [100, 1000, 5000, 10_000];

export async function runPrimary(count: number): Promise<void> {
  // The same JSON lines as the workers' logger (app/lib/logger.server.ts).
  const log = pino({
    level: process.env.LOG_LEVEL || "info",
    base: { component: "primary" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
  // The C allocator's tuning and V8's heap limit (scripts/start.mjs says why), for a primary
  // started some other way; set before a worker starts, since both are read once at its start.
  const heapSet = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((flag) => flag.includes("max-old-space-size"));
  const env = {
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
    MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? "1048576",
    ...(heapSet ? {} : { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=512`.trim() }),
  };
  let stopping = false;
  let everListened = false;
  let quickDeaths = 0;
  const startedAt = new Map<Worker, number>();

  const fork = () => {
    const worker = cluster.fork(env);
    startedAt.set(worker, Date.now());
    worker.once("listening", () => {
      everListened = true;
    });
  };

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        log.info("Encerrado.");
        process.exit(0);
      }
      return;
    }
    // A configuration or database problem makes every worker fail the same way at start-up:
    // say so once and stop, instead of restarting forever.
    if (!everListened) {
      log.fatal({ code, signal }, "worker could not start: stopping");
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    quickDeaths = lived < EARLY_DEATH_MS ? quickDeaths + 1 : 0;
    const delay = RESTART_DELAYS_MS[Math.min(quickDeaths, RESTART_DELAYS_MS.length - 1)];
    log.error({ worker: worker.id, code, signal, restartInMs: delay }, "worker died: starting another");
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, "encerrando...");
    setTimeout(() => {
      log.warn("workers still running after the deadline: leaving");
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    // Each worker runs its own graceful stop: no new connections, streams ended, requests in
    // flight finished, pool closed.
    for (const worker of workers) worker?.process.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  log.info({ workers: count }, "starting workers");
  for (let i = 0; i < count; i++) fork();
}
