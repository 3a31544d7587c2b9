import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { type SQL, sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { acquireLock, prepareDataDir } from "~/lib/data-dir-lock.server";
import { logger } from "~/lib/logger.server";
import { projectRoot } from "~/lib/paths.server";
import * as schema from "./schema";

/** The drizzle database, the same API on both drivers. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type NotificationListener = (payload: string) => void;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /**
   * LISTEN on a channel; resolves to a function that stops listening. On PostgreSQL the listening
   * connection reconnects by itself and calls `onReconnect` (notifications may have been missed).
   */
  listen(channel: string, onNotify: NotificationListener, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Only for the embedded database: its PGlite instance (backups, tests). */
  pglite?: PGlite;
  /** Only for PostgreSQL: the connection pool. */
  pool?: pg.Pool;
};

const log = logger("db");

export const migrationsFolder = () => path.join(projectRoot(), "app/db/migrations");

/** The folder PGlite keeps its files in, inside DATA_DIR. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, "pglite");
export const pgliteLockFile = (dataDir: string) => path.join(dataDir, "pglite.lock");

/**
 * PostgreSQL's default 128 MB of shared buffers live inside PGlite's WebAssembly memory, which
 * never shrinks, and are touched at start: ~110 MB of resident memory for a database of a few MB.
 * 32 MB holds the whole catalogue of an agency many times over; the operating system's file cache
 * serves the rest. Measured: RSS after opening the database 340 → 238 MB (README, "Performance").
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"];

export async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const dir = pgliteDir(dataDir);
  prepareDataDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const release = acquireLock(pgliteLockFile(dataDir));
  let client: PGlite;
  try {
    client = await PGlite.create(dir, { extensions: { unaccent, pg_trgm }, startParams: PGLITE_START_PARAMS });
  } catch (error) {
    release();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    kind: "pglite",
    pglite: client,
    async listen(channel, onNotify) {
      const unsubscribe = await client.listen(channel, onNotify);
      return async () => {
        if (!closed) await unsubscribe();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

export async function openPostgres(databaseUrl: string, poolSize = 10): Promise<DatabaseHandle> {
  // numeric and bigint arrive as strings from pg; drizzle's mode:"number" columns convert them.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  pool.on("error", (error) => log.error({ code: (error as { code?: string }).code }, "idle PostgreSQL client error"));
  // Fail at start-up, not on the first request, when the server is unreachable.
  const probe = await pool.connect();
  probe.release();
  const db = drizzleNodePg(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    pool,
    listen(channel, onNotify, onReconnect) {
      return listenWithReconnect(databaseUrl, channel, onNotify, onReconnect);
    },
    async close() {
      await pool.end();
    },
  };
}

/** Delays before reconnecting a lost listening connection: 1, 2, 5, then every 10 seconds. */
export const LISTEN_RETRY_MS = [1000, 2000, 5000, 10000];

/**
 * A dedicated PostgreSQL connection that LISTENs, and comes back by itself when the server
 * restarts or the network drops (pool connections are not for LISTEN: they get recycled).
 */
async function listenWithReconnect(
  databaseUrl: string,
  channel: string,
  onNotify: NotificationListener,
  onReconnect?: () => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const connect = async (isReconnect: boolean): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
    next.on("notification", (message) => {
      if (message.channel === channel) onNotify(message.payload ?? "");
    });
    const lost = () => {
      if (stopped || client !== next) return;
      client = undefined;
      next.end().catch(() => {});
      scheduleRetry();
    };
    next.on("error", (error) => {
      log.warn({ code: (error as { code?: string }).code }, "listening connection lost");
      lost();
    });
    next.on("end", lost);
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    attempt = 0;
    if (isReconnect) onReconnect?.();
  };

  const scheduleRetry = () => {
    const delay = LISTEN_RETRY_MS[Math.min(attempt, LISTEN_RETRY_MS.length - 1)];
    attempt++;
    retryTimer = setTimeout(() => {
      connect(true).catch((error) => {
        log.warn({ code: (error as { code?: string }).code }, "listening connection: reconnect failed, trying again");
        scheduleRetry();
      });
    }, delay);
  };

  await connect(false);
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    await client?.end().catch(() => {});
  };
}

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openPglite(options.dataDir);
}

/** Applies the committed migrations. On PostgreSQL an advisory lock stops two processes racing. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const folder = migrationsFolder();
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as never, { migrationsFolder: folder });
    return;
  }
  const client = await handle.pool!.connect();
  try {
    await client.query("select pg_advisory_lock(72706172)");
    await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: folder });
  } finally {
    await client.query("select pg_advisory_unlock(72706172)").catch(() => {});
    client.release();
  }
}

/** Raw SQL rows, the same on both drivers (each returns `{ rows }`). */
export async function queryRows<T = Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Runs `work` while holding a PostgreSQL advisory lock, so that several app processes starting
 * at once do the first-start tasks (seed, first admin) one after another instead of twice.
 * The embedded database has one process by construction: no lock needed.
 */
export async function withStartupLock<T>(handle: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  if (handle.kind !== "postgres") return work();
  const client = await handle.pool!.connect();
  try {
    await client.query("select pg_advisory_lock(72706173)");
    return await work();
  } finally {
    await client.query("select pg_advisory_unlock(72706173)").catch(() => {});
    client.release();
  }
}

/**
 * Whether the database answers a trivial query within `timeoutMs` (GET /healthz). A query stuck
 * behind a long transaction on the embedded database's one connection counts as not answering.
 */
export async function databaseAnswers(handle: Pick<DatabaseHandle, "db">, timeoutMs = 2000): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const answered = handle.db.execute(sql`select 1`).then(
      () => true,
      () => false,
    );
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Keys of the periodic jobs' advisory locks (any fixed numbers; distinct from the ones above). */
export const JOB_LOCKS = { scheduledBackup: 72706180, housekeeping: 72706181, retention: 72706182 } as const;

/**
 * Runs a periodic job in one process only: on PostgreSQL, where several app processes share the
 * database, whoever gets the advisory lock runs it and the others skip this round (resolves to
 * undefined). The embedded database has one process by construction.
 */
export async function withJobLock<T>(handle: DatabaseHandle, key: number, work: () => Promise<T>): Promise<T | undefined> {
  if (handle.kind !== "postgres") return work();
  const client = await handle.pool!.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1) as locked", [key]);
    if (!rows[0]?.locked) return undefined;
    try {
      return await work();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [key]).catch(() => {});
    }
  } finally {
    client.release();
  }
}
