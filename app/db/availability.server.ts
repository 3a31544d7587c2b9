import fs from "node:fs";
import { TransactionRollbackError, sql } from "drizzle-orm";
import type { DatabaseHandle } from "./client.server";
import { throttle } from "./schema";

/**
 * Telling a database that cannot serve right now (down, frozen, refusing connections, out of
 * disk, out of time) from a bug, and saying so to visitors as 503 + Retry-After instead of 500
 * (issue 21). Also the health probe and the embedded database's free-space rule.
 */

/**
 * Free space the embedded database needs on DATA_DIR's disk to run: a new 16 MB WAL segment, the
 * tables' and indexes' next pages, a checkpoint. Below it the server refuses to start and
 * /healthz answers 503; README "Operations" says how much to plan for.
 */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

// Node's system errors: the server is not there, the network between us is broken, the disk is full.
const SYSTEM_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "ENOSPC"]);
// PostgreSQL's SQLSTATEs: 08 connection exceptions; 53 insufficient resources (53100 disk full,
// 53200 out of memory, 53300 too many connections); 57P01–57P05 shutdown, crash, cannot connect
// now, idle session timeouts; 57014 a statement cancelled (statement_timeout); 25006 a standby
// that cannot write (what a failover leaves behind for a moment).
const UNAVAILABLE_STATE = /^(08|53|57P)/;
const UNAVAILABLE_STATES = new Set(["57014", "25006"]);
// pg's and PGlite's own words for the same conditions (they carry no code).
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|Cannot use a pool after calling end|PGlite is closed/i;

/**
 * Whether `error` (or what caused it: drizzle wraps the driver's error in its own) says the
 * database cannot serve right now, rather than that the query or the code is wrong.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 6) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && (SYSTEM_CODES.has(code) || UNAVAILABLE_STATE.test(code) || UNAVAILABLE_STATES.has(code))) return true;
  if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
  // A connection to "localhost" tries each address: node reports them together (AggregateError).
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** Bytes free for this user on the filesystem holding `dir`, or undefined when it cannot be read. */
export function freeBytes(dir: string): number | undefined {
  try {
    const stats = fs.statfsSync(dir);
    return Number(stats.bavail) * Number(stats.bsize);
  } catch {
    return undefined;
  }
}

const megabytes = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;

/** The operator's message when DATA_DIR's disk is too full for the embedded database, else null. */
export function lowDiskMessage(dataDir: string, free = freeBytes(dataDir)): string | null {
  if (free === undefined || free >= MIN_FREE_BYTES) return null;
  return (
    `Espaço em disco insuficiente em ${dataDir}: ${megabytes(free)} livres, e o banco de dados embutido precisa de ` +
    `pelo menos ${megabytes(MIN_FREE_BYTES)}. Libere espaço nesse disco (backups antigos em ${dataDir}/backups, ` +
    "por exemplo) e inicie o servidor de novo."
  );
}

export type Health = { ok: true } | { ok: false; reason: "no-answer" | "cannot-write" | "disk-full" };

/**
 * GET /healthz's checks, cheap enough for a probe every few seconds: the database answers
 * within `timeoutMs`, it can write (a one-row insert in a transaction that is rolled back: a
 * standby, a read-only or broken database fails it), and — for the embedded database — its disk
 * has the headroom it needs (a full disk lets reads and even that insert pass while every lead
 * fails to extend its table).
 */
export async function databaseHealth(
  handle: Pick<DatabaseHandle, "db" | "kind">,
  options: { dataDir: string; timeoutMs?: number },
): Promise<Health> {
  if (handle.kind === "pglite" && lowDiskMessage(options.dataDir)) return { ok: false, reason: "disk-full" };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Health>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: "no-answer" }), options.timeoutMs ?? 2000);
  });
  const probe = (async (): Promise<Health> => {
    try {
      await handle.db.execute(sql`select 1`);
    } catch {
      return { ok: false, reason: "no-answer" };
    }
    try {
      await handle.db.transaction(async (tx) => {
        await tx.insert(throttle).values({ key: `health:${crypto.randomUUID()}`, count: 0 });
        tx.rollback();
      });
    } catch (error) {
      // tx.rollback() ends the transaction by throwing: that is the expected way out.
      if (!(error instanceof TransactionRollbackError)) return { ok: false, reason: "cannot-write" };
    }
    return { ok: true };
  })();
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
