import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import { logger } from "~/lib/logger.server";
import type { Database, DatabaseHandle, NotificationListener } from "./client.server";
import * as schema from "./schema";

/**
 * PostgreSQL connections with every wait bounded (issue 21: a database that stopped answering
 * held lead posts and pages for as long as it was frozen). README "Deploying on PostgreSQL" lists
 * these bounds; a visitor's request gets its answer — or a 503 — within about
 * CONNECT_MS + ANSWER_MS.
 */
export const POSTGRES_BOUNDS = {
  /** Opening a connection (TCP, TLS, authentication), and waiting for a free one in the pool. */
  connectMs: 5_000,
  /** One statement of the site's ordinary work: the server cancels it past this (statement_timeout). */
  statementMs: 10_000,
  /**
   * No answer at all within this (a frozen server or network, where the server cannot even cancel):
   * the client gives up on the statement and closes the connection, which may never answer again.
   */
  answerMs: 12_000,
  /** A transaction left open and idle this long (its process frozen) is ended by the server, freeing its locks. */
  idleInTransactionMs: 60_000,
  /** Long work on its own connections: migrations, waiting for another process's start-up, exports, the retention round. */
  longStatementMs: 15 * 60_000,
} as const;

/** How long the site's requests have been waiting for a connection (the overload guard reads it). */
export type ConnectionWait = { waiting: number; longestMs: number };

/**
 * A pool that knows who is waiting for one of its connections and since when (pg's pool counts
 * waiters but not their wait). pg's own pool.query() goes through connect() too.
 */
class WatchedPool extends pg.Pool {
  readonly #waiting = new Set<{ since: number }>();

  connect(): Promise<pg.PoolClient>;
  connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void) {
    const ticket = { since: performance.now() };
    this.#waiting.add(ticket);
    if (callback) {
      return super.connect((err, client, done) => {
        this.#waiting.delete(ticket);
        callback(err, client, done);
      });
    }
    return super.connect().finally(() => this.#waiting.delete(ticket));
  }

  wait(): ConnectionWait {
    // A Set keeps insertion order: the first ticket is the longest wait.
    const first = this.#waiting.values().next().value;
    return { waiting: this.#waiting.size, longestMs: first ? performance.now() - first.since : 0 };
  }
}

const log = logger("db");
const openPools = new Set<WatchedPool>();

/** The longest wait for a connection in this process's pools (none: zero). */
export function connectionWait(): ConnectionWait {
  let result: ConnectionWait = { waiting: 0, longestMs: 0 };
  for (const pool of openPools) {
    const wait = pool.wait();
    result = { waiting: result.waiting + wait.waiting, longestMs: Math.max(result.longestMs, wait.longestMs) };
  }
  return result;
}

/**
 * pg gives up on a statement that gets no answer (query_timeout) but leaves its connection
 * waiting for that answer, and every later statement on it queues behind: inside a transaction
 * the ROLLBACK would wait as long again, and the connection would go back to the pool stuck.
 * A connection that did not answer in time is closed instead; the pool then opens a new one.
 */
function closeUnansweredConnections(pool: pg.Pool) {
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if ((error as Error)?.message === "Query read timeout") {
            (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
          }
        });
      }
      return result;
    };
  });
}

function boundedPool(databaseUrl: string, max: number, statementMs: number, idleInTransactionMs?: number): WatchedPool {
  const pool = new WatchedPool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: POSTGRES_BOUNDS.connectMs,
    statement_timeout: statementMs,
    query_timeout: statementMs + (POSTGRES_BOUNDS.answerMs - POSTGRES_BOUNDS.statementMs),
    ...(idleInTransactionMs ? { idle_in_transaction_session_timeout: idleInTransactionMs } : {}),
    // A peer that vanished without closing (a crashed machine) is noticed by TCP keep-alive.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  pool.on("error", (error) => log.error({ code: (error as { code?: string }).code }, "idle PostgreSQL client error"));
  closeUnansweredConnections(pool);
  return pool;
}

export async function openPostgres(databaseUrl: string, poolSize = 10): Promise<DatabaseHandle> {
  // numeric and bigint arrive as strings from pg; drizzle's mode:"number" columns convert them.
  const pool = boundedPool(databaseUrl, poolSize, POSTGRES_BOUNDS.statementMs, POSTGRES_BOUNDS.idleInTransactionMs);
  // Long work gets its own few connections and its own limit, so it never starves requests of
  // connections and the requests' limit never cuts it short.
  const longPool = boundedPool(databaseUrl, 4, POSTGRES_BOUNDS.longStatementMs);
  try {
    // Fail at start-up, not on the first request, when the server is unreachable.
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await Promise.all([pool.end(), longPool.end()]).catch(() => {});
    throw error;
  }
  openPools.add(pool);
  const db = drizzleNodePg(pool, { schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    longDb: drizzleNodePg(longPool, { schema }) as unknown as Database,
    kind: "postgres",
    pool,
    longPool,
    listen(channel, onNotify, onReconnect) {
      return listenWithReconnect(databaseUrl, channel, onNotify, onReconnect);
    },
    connectionWait: () => pool.wait(),
    async close() {
      if (closed) return;
      closed = true;
      openPools.delete(pool);
      await Promise.all([pool.end(), longPool.end()]);
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
    const next = new pg.Client({
      connectionString: databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // A reconnect attempt to a frozen server gives up and tries again later.
      connectionTimeoutMillis: POSTGRES_BOUNDS.connectMs,
      query_timeout: POSTGRES_BOUNDS.answerMs,
    });
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
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
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
