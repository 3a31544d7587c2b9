import { monitorEventLoopDelay } from "node:perf_hooks";
import type { MiddlewareHandler } from "hono";

/**
 * Load shedding. A burst bigger than the process can serve must not leave sockets waiting until
 * the client gives up: past a bound on requests in flight, or while the event loop is lagging
 * badly, new requests get 503 with Retry-After at once (costing a few microseconds), and the
 * requests already admitted finish in reasonable time. The live-updates stream (long-lived by
 * design) and the health probe (it must tell the truth under load) are never refused.
 *
 * The defaults sit well above what 200 simultaneous visitors ask for, so a normal burst is
 * served, not shed; they only bite when the server is truly saturated.
 */

export const OVERLOAD_MESSAGE = "Servidor ocupado no momento. Tente novamente em alguns segundos.";
const EXEMPT = /^\/(api\/events|healthz)\/?$/;

export type OverloadOptions = {
  /** Requests being answered at once (MAX_REQUESTS_IN_FLIGHT). */
  maxInFlight: number;
  /** Event-loop lag (p99 of a second, ms) above which, second after second, new requests are refused (MAX_EVENT_LOOP_DELAY_MS; 0 = off). */
  maxEventLoopDelayMs: number;
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

export function overloadGuard(options: OverloadOptions = overloadOptionsFromEnv()): MiddlewareHandler {
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

  return async (c, next) => {
    if (EXEMPT.test(c.req.path)) return next();
    if (inFlight >= options.maxInFlight || lagging) {
      return c.text(OVERLOAD_MESSAGE, 503, { "Retry-After": retryAfter, "Cache-Control": "no-store" });
    }
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
}
