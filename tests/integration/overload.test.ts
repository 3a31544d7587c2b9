import type { AddressInfo } from "node:net";
import type http from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OVERLOAD_MESSAGE, overloadGuard, overloadOptionsFromEnv, sustainedLag } from "../../server/overload";

/**
 * Load shedding over real HTTP: with a bound of two requests in flight, two requests held open
 * by the handler fill the server; the next one is answered 503 with Retry-After at once instead
 * of waiting, while the health probe and the event stream still pass; once the held requests
 * finish, requests are served again. No timings: the held requests wait on a gate the test opens.
 */

let server: http.Server;
let base: string;
let openGate: () => void = () => {};
let gate = Promise.resolve();
let arrived = 0;

beforeAll(async () => {
  const app = new Hono();
  app.use("*", overloadGuard({ maxInFlight: 2, maxEventLoopDelayMs: 0 }));
  app.get("/lento", async (c) => {
    arrived++;
    await gate;
    return c.text("pronto");
  });
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/api/events", (c) => c.text("event: ready\n\n", 200, { "Content-Type": "text/event-stream" }));
  app.get("/", (c) => c.text("página"));
  server = await new Promise<http.Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started as http.Server)) as http.Server;
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  openGate();
  await new Promise((resolve) => server.close(resolve));
});

describe("overload guard", () => {
  it("answers 503 with Retry-After past the bound, exempts health and events, and recovers", async () => {
    gate = new Promise<void>((resolve) => (openGate = resolve));
    arrived = 0;
    const held = [fetch(`${base}/lento`), fetch(`${base}/lento`)];
    // Both held requests are inside the handler once it has counted them.
    while (arrived < 2) await new Promise((resolve) => setImmediate(resolve));

    const refused = await fetch(`${base}/`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.text()).toBe(OVERLOAD_MESSAGE);

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/api/events`)).status).toBe(200);

    openGate();
    const finished = await Promise.all(held);
    expect(finished.map((response) => response.status)).toEqual([200, 200]);
    await Promise.all(finished.map((response) => response.text()));

    const served = await fetch(`${base}/`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe("página");
  });

  it("a request that fails still leaves its place", async () => {
    const app = new Hono();
    app.use("*", overloadGuard({ maxInFlight: 1, maxEventLoopDelayMs: 0 }));
    app.onError((_error, c) => c.text("erro", 500));
    app.get("/falha", () => {
      throw new Error("boom");
    });
    app.get("/", (c) => c.text("ok"));
    expect((await app.request("/falha")).status).toBe(500);
    expect((await app.request("/falha")).status).toBe(500);
    expect((await app.request("/")).status).toBe(200);
  });

  it("reads its bounds from the environment and refuses a bad value by name", () => {
    const saved = { ...process.env };
    try {
      process.env.MAX_REQUESTS_IN_FLIGHT = "7";
      process.env.MAX_EVENT_LOOP_DELAY_MS = "0";
      process.env.MAX_DATABASE_WAIT_MS = "250";
      expect(overloadOptionsFromEnv()).toEqual({ maxInFlight: 7, maxEventLoopDelayMs: 0, maxDatabaseWaitMs: 250 });
      process.env.MAX_REQUESTS_IN_FLIGHT = "muitos";
      expect(() => overloadOptionsFromEnv()).toThrow(/MAX_REQUESTS_IN_FLIGHT/);
      process.env.MAX_REQUESTS_IN_FLIGHT = "7";
      process.env.MAX_DATABASE_WAIT_MS = "-1";
      expect(() => overloadOptionsFromEnv()).toThrow(/MAX_DATABASE_WAIT_MS/);
    } finally {
      process.env = saved;
    }
  });
});

/** Holds this process's event loop for `ms`, as a long synchronous task does. */
function blockLoop(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
const yieldToLoop = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("overload guard: event-loop lag", () => {
  it("counts lagging windows in a row: one is not enough, two are, a calm one resets", () => {
    const lagged = sustainedLag(500);
    expect(lagged(2400)).toBe(false);
    expect(lagged(100)).toBe(false);
    expect(lagged(700)).toBe(false);
    expect(lagged(900)).toBe(true);
    expect(lagged(3000)).toBe(true);
    expect(lagged(500)).toBe(false);
    expect(lagged(501)).toBe(false);
  });

  it("one long task does not make the next seconds' visitors wait for a 503", async () => {
    const app = new Hono();
    app.use("*", overloadGuard({ maxInFlight: 1000, maxEventLoopDelayMs: 500 }));
    app.get("/", (c) => c.text("página"));
    // Let the guard's sampler read a calm window first.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    blockLoop(1500);
    const statuses = new Set<number>();
    // Every window the sampler reads in the next 2.5 s, including the one holding the 1.5 s lag.
    for (const end = Date.now() + 2500; Date.now() < end; ) {
      statuses.add((await app.request("/")).status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect([...statuses]).toEqual([200]);
  });

  it("a loop that lags second after second refuses new requests, and serves again once calm", async () => {
    const app = new Hono();
    app.use("*", overloadGuard({ maxInFlight: 1000, maxEventLoopDelayMs: 500 }));
    app.get("/", (c) => c.text("página"));
    let refused: Response | undefined;
    // Saturated: 700 ms of work at a time, with the loop turning in between.
    for (const end = Date.now() + 8000; !refused && Date.now() < end; ) {
      blockLoop(700);
      await yieldToLoop();
      const response = await app.request("/");
      if (response.status === 503) refused = response;
    }
    expect(refused?.headers.get("retry-after")).toBe("2");
    expect(await refused?.text()).toBe(OVERLOAD_MESSAGE);
    // Calm again: once a window passes without lag, requests are served.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    expect((await app.request("/")).status).toBe(200);
  });
});
