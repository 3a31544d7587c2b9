import { monitorEventLoopDelay } from "node:perf_hooks";
import type { MiddlewareHandler } from "hono";
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from "../app/lib/unavailable";

/**
 * Load shedding. A burst bigger than the process can serve must not leave sockets waiting until
 * the client gives up: past a bound on requests in flight, or while the event loop is lagging
 * badly, new requests get 503 with Retry-After at once (costing a few microseconds), and the
 * requests already admitted finish in reasonable time. The live-updates stream (long-lived by
 * design) and the health probe (it must tell the truth under load) are never refused.
 *
 * The third signal is the database (issue 21): when requests queue for one of the pool's
 * connections (PostgreSQL), they wait without using the event loop, so neither bound above sees
 * them, and clients time out. Past a bound on the longest of those waits, new reads (GET, HEAD)
 * are refused too, until the queue drains. Writes — a lead, a sign-in — are few and worth the
 * most: they still get in, wait their bounded turn (db/postgres.server.ts) and, if the database
 * cannot serve them in time, their form answers with its own message and keeps what was typed.
 *
 * The defaults sit well above what 200 simultaneous visitors ask for, so a normal burst is
 * served, not shed; they only bite when the server is truly saturated.
 */

export const OVERLOAD_MESSAGE = "Servidor ocupado no momento. Tente novamente em alguns segundos.";
const EXEMPT = /^\/(api\/events|healthz)\/?$/;
/**
 * What is answered without the database: the build's assets, the client router's route manifest
 * and the public folder's files. A database backlog must not refuse them: the client router
 * fetches a route's module (and the manifest) before it posts a form, and a refused module makes
 * it reload the whole page, losing what the visitor typed into a dialog (the booking dialog did).
 */
const WITHOUT_DATABASE = /^\/(assets\/|__manifest$|icons\/|favicon\.svg$|apple-touch-icon\.png$|og-default\.jpg$|portrait-placeholder\.svg$|crm-sw-push\.js$|crm\/(sw\.js|offline\.html)$)/;

export type OverloadOptions = {
  /** Requests being answered at once (MAX_REQUESTS_IN_FLIGHT). */
  maxInFlight: number;
  /** Event-loop lag (p99 of a second, ms) above which, second after second, new requests are refused (MAX_EVENT_LOOP_DELAY_MS; 0 = off). */
  maxEventLoopDelayMs: number;
  /** The longest wait for a database connection (ms) past which new requests are refused (MAX_DATABASE_WAIT_MS; 0 = off). */
  maxDatabaseWaitMs?: number;
  /** How long requests have been waiting for a database connection now (the app's pool; undefined: no pool). */
  databaseWait?: () => { longestMs: number } | undefined;
  /** Seconds a refused client is asked to wait. */
  retryAfterSeconds?: number;
};

function wholeNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`Invalid configuration:\n  ${name}: must be a whole number of at least ${min}`);
  return value;
}

/** The bounds from the environment (read once, when the server is built). */
export function overloadOptionsFromEnv(): OverloadOptions {
  return {
    maxInFlight: wholeNumber("MAX_REQUESTS_IN_FLIGHT", 1000, 1),
    maxEventLoopDelayMs: wholeNumber("MAX_EVENT_LOOP_DELAY_MS", 2000, 0),
    maxDatabaseWaitMs: wholeNumber("MAX_DATABASE_WAIT_MS", 1000, 0),
  };
}

/**
 * How many one-second windows in a row must lag before requests are refused. One long task (a
 * scheduled backup's database dump, ~0.7 s idle and over 2 s on a busy machine) fills a single
 * window with a huge p99 and is over by the time the window is read: refusing the next second's
 * visitors would not help them (it made the browser tests' sign-in get 503). A saturated loop
 * lags window after window.
 */
const LAGGING_WINDOWS = 2;

/** Feeds one window's p99 lag (ms); says whether the loop has lagged past `maxMs` for `windows` windows running. */
export function sustainedLag(maxMs: number, windows = LAGGING_WINDOWS): (p99Ms: number) => boolean {
  let laggingWindows = 0;
  return (p99Ms) => {
    laggingWindows = p99Ms > maxMs ? laggingWindows + 1 : 0;
    return laggingWindows >= windows;
  };
}

/**
 * The middleware, and its judgement alone for the cache hit's fast path (server/cache-hit.ts):
 * `usesDatabase` false for an answer that needs no database (a stored page), which a database
 * backlog does not refuse.
 */
export type OverloadGuard = MiddlewareHandler & { admits(method: string, usesDatabase?: boolean): boolean };

export function overloadGuard(options: OverloadOptions = overloadOptionsFromEnv()): OverloadGuard {
  const retryAfter = String(options.retryAfterSeconds ?? 2);
  let inFlight = 0;
  let lagging = false;

  if (options.maxEventLoopDelayMs > 0) {
    const histogram = monitorEventLoopDelay({ resolution: 20 });
    histogram.enable();
    const lagged = sustainedLag(options.maxEventLoopDelayMs);
    // A timer that itself runs late is the point: the histogram says by how much.
    const sampler = setInterval(() => {
      lagging = lagged(histogram.percentile(99) / 1e6);
      histogram.reset();
    }, 1000);
    sampler.unref();
  }

  const maxWait = options.maxDatabaseWaitMs ?? 0;
  const databaseBacklogged = () => maxWait > 0 && (options.databaseWait?.()?.longestMs ?? 0) > maxWait;

  const admits = (method: string, usesDatabase = true) => {
    const read = method === "GET" || method === "HEAD";
    return !(inFlight >= options.maxInFlight || lagging || (read && usesDatabase && databaseBacklogged()));
  };
  const guard: MiddlewareHandler = async (c, next) => {
    if (EXEMPT.test(c.req.path)) return next();
    if (!admits(c.req.method, !WITHOUT_DATABASE.test(c.req.path))) return c.text(OVERLOAD_MESSAGE, 503, { "Retry-After": retryAfter, "Cache-Control": "no-store" });
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
  return Object.assign(guard, { admits });
}

/**
 * A request the database could not serve (the app marked it: `databaseFailed`), or any 503 of
 * the app, as clients should get it: 503 with Retry-After, never stored, and with the
 * Portuguese message when the app had no body to send (issue 21).
 */
export function unavailableAnswer(response: Response, databaseFailed: boolean): Response {
  if (response.status !== 503 && !(databaseFailed && response.status >= 500)) return response;
  const headers = new Headers(response.headers);
  if (!headers.has("Retry-After")) headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
  headers.set("Cache-Control", "no-store");
  if (!response.body) {
    headers.set("Content-Type", "text/plain; charset=utf-8");
    return new Response(DATABASE_UNAVAILABLE_MESSAGE, { status: 503, headers });
  }
  return new Response(response.body, { status: 503, statusText: "Service Unavailable", headers });
}
