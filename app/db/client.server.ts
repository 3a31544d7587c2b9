import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type pg from "pg";
import { acquireLock, DataDirLockedError, prepareDataDir } from "~/lib/data-dir-lock.server";
import { projectRoot } from "~/lib/paths.server";
import { freeBytes, lowDiskMessage } from "./availability.server";
import { type ConnectionWait, openPostgres } from "./postgres.server";
import * as schema from "./schema";

export { connectionWait, LISTEN_RETRY_MS, openPostgres, POSTGRES_BOUNDS } from "./postgres.server";
export { databaseHealth, isDatabaseUnavailable } from "./availability.server";

/** The drizzle database, the same API on both drivers. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type NotificationListener = (payload: string) => void;

export type DatabaseHandle = {
  db: Database;
  /**
   * For long work (migrations, exports, the retention round): on PostgreSQL a few connections of
   * its own with a long statement limit (postgres.server.ts); the embedded database has one.
   */
  longDb: Database;
  kind: "pglite" | "postgres";
  /**
   * LISTEN on a channel; resolves to a function that stops listening. On PostgreSQL the listening
   * connection reconnects by itself and calls `onReconnect` (notifications may have been missed).
   */
  listen(channel: string, onNotify: NotificationListener, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** Only for the embedded database: its PGlite instance (backups, tests). */
  pglite?: PGlite;
  /** Only for PostgreSQL: the connection pool, and the one for long work. */
  pool?: pg.Pool;
  longPool?: pg.Pool;
  /** Only for PostgreSQL: how long requests have been waiting for a connection. */
  connectionWait?: () => ConnectionWait;
};

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

/** The embedded database cannot start: the message says why and what to do. */
export class DatabaseStartError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseStartError";
  }
}

export async function openPglite(dataDir: string, options: { checkFreeSpace?: boolean } = {}): Promise<DatabaseHandle> {
  const dir = pgliteDir(dataDir);
  prepareDataDir(dataDir);
  // On a full disk PGlite's start-up aborts with a message about WebAssembly, and a database that
  // starts anyway fails every write: say what is wrong before trying (issue 21).
  const lowDisk = options.checkFreeSpace === false ? null : lowDiskMessage(dataDir);
  if (lowDisk) throw new DatabaseStartError(lowDisk);
  let release: () => void;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    release = acquireLock(pgliteLockFile(dataDir));
  } catch (error) {
    // A folder in use says so itself; anything else (no room even for the lock file) is explained.
    if (error instanceof DataDirLockedError) throw error;
    throw new DatabaseStartError(pgliteStartFailure(dataDir, error), { cause: error });
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dir, { extensions: { unaccent, pg_trgm }, startParams: PGLITE_START_PARAMS });
  } catch (error) {
    release();
    throw new DatabaseStartError(pgliteStartFailure(dataDir, error), { cause: error });
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    longDb: db,
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

/**
 * Why PGlite did not open, for the operator: its own words ("PGlite failed to initialize
 * properly", "Aborted()") never mention the disk, the usual cause once the folder is not held.
 */
function pgliteStartFailure(dataDir: string, error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  const free = freeBytes(dataDir);
  const disk = lowDiskMessage(dataDir, free);
  if (disk) return `${disk} (O banco de dados embutido não abriu: ${detail})`;
  const freeText = free === undefined ? "desconhecido" : `${Math.floor(free / (1024 * 1024))} MB`;
  return (
    `O banco de dados embutido em ${pgliteDir(dataDir)} não abriu: ${detail}. Espaço livre em ${dataDir}: ${freeText}. ` +
    'Se o disco encheu enquanto o servidor rodava, libere espaço e inicie de novo; se ainda não abrir, restaure o último backup (README, "Operations").'
  );
}

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL: connections in the site's pool (DATABASE_POOL_SIZE). */
  poolSize?: number;
}): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize)
    : openPglite(options.dataDir);
}

/** Applies the committed migrations. On PostgreSQL an advisory lock stops two processes racing. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const folder = migrationsFolder();
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as never, { migrationsFolder: folder });
    return;
  }
  // Its own connection with the long limit: the lock may wait for another process's migrations.
  const client = await handle.longPool!.connect();
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
  // The wait lasts as long as another process's first start (seeding the demo photos).
  const client = await handle.longPool!.connect();
  try {
    await client.query("select pg_advisory_lock(72706173)");
    return await work();
  } finally {
    await client.query("select pg_advisory_unlock(72706173)").catch(() => {});
    client.release();
  }
}

/** Keys of the periodic jobs' advisory locks (any fixed numbers; distinct from the ones above). */
export const JOB_LOCKS = { scheduledBackup: 72706180, housekeeping: 72706181, retention: 72706182, pushSchedule: 72706183 } as const;

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
