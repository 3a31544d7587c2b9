// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COALESCE_MS, HEARTBEAT_MS, LiveHub, MAX_STREAMS_PER_ADDRESS, type LiveSubscriber } from "./hub.server";

function fakeDatabase() {
  const state: { notify?: (payload: string) => void; reconnect?: () => void; unlistened: boolean } = { unlistened: false };
  return {
    state,
    listen: async (_channel: string, onNotify: (payload: string) => void, onReconnect?: () => void) => {
      state.notify = onNotify;
      state.reconnect = onReconnect;
      return async () => {
        state.unlistened = true;
      };
    },
  };
}

function subscriber(staff: boolean) {
  const chunks: string[] = [];
  let closed = false;
  const value: LiveSubscriber = { staff, send: (chunk) => chunks.push(chunk), close: () => (closed = true) };
  return { value, chunks, isClosed: () => closed };
}

describe("live hub", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("tells visitors about properties only, staff about leads too", async () => {
    const database = fakeDatabase();
    const hub = new LiveHub();
    await hub.start(database);
    const visitor = subscriber(false);
    const staff = subscriber(true);
    hub.subscribe(visitor.value);
    hub.subscribe(staff.value);

    database.state.notify!(JSON.stringify({ table: "leads", op: "insert" }));
    database.state.notify!(JSON.stringify({ table: "properties", op: "update" }));
    vi.advanceTimersByTime(COALESCE_MS);

    expect(visitor.chunks).toEqual(['event: change\ndata: {"table":"properties"}\n\n']);
    expect(staff.chunks.sort()).toEqual([
      'event: change\ndata: {"table":"leads"}\n\n',
      'event: change\ndata: {"table":"properties"}\n\n',
    ]);
    await hub.stop();
  });

  it("sends a burst of changes as one event per table", async () => {
    const database = fakeDatabase();
    const hub = new LiveHub();
    await hub.start(database);
    const visitor = subscriber(false);
    hub.subscribe(visitor.value);
    for (let i = 0; i < 100; i++) database.state.notify!(JSON.stringify({ table: "properties" }));
    vi.advanceTimersByTime(COALESCE_MS);
    expect(visitor.chunks).toHaveLength(1);
    await hub.stop();
  });

  it("after a listener reconnect, asks every page to reload (events may be lost)", async () => {
    const database = fakeDatabase();
    const hub = new LiveHub();
    await hub.start(database);
    const visitor = subscriber(false);
    hub.subscribe(visitor.value);
    database.state.reconnect!();
    vi.advanceTimersByTime(COALESCE_MS);
    expect(visitor.chunks).toEqual(['event: change\ndata: {"table":"*"}\n\n']);
    await hub.stop();
  });

  it("sends a heartbeat every 25 s, forgets left streams, and ends all streams on stop", async () => {
    const database = fakeDatabase();
    const hub = new LiveHub();
    await hub.start(database);
    const staying = subscriber(false);
    const leaving = subscriber(false);
    hub.subscribe(staying.value);
    const unsubscribe = hub.subscribe(leaving.value);
    unsubscribe();
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(HEARTBEAT_MS).toBe(25_000);
    expect(staying.chunks).toEqual([": ping\n\n"]);
    expect(leaving.chunks).toEqual([]);
    expect(hub.size).toBe(1);
    await hub.stop();
    expect(staying.isClosed()).toBe(true);
    expect(database.state.unlistened).toBe(true);
    expect(hub.size).toBe(0);
  });

  it("ignores notifications that are not about our tables", async () => {
    const database = fakeDatabase();
    const hub = new LiveHub();
    await hub.start(database);
    const staff = subscriber(true);
    hub.subscribe(staff.value);
    database.state.notify!("not json");
    database.state.notify!(JSON.stringify({ table: "user" }));
    vi.advanceTimersByTime(COALESCE_MS);
    expect(staff.chunks).toEqual([]);
    await hub.stop();
  });

  it("asks staff streams at every heartbeat whether they may go on, and closes those that may not", async () => {
    const database = fakeDatabase();
    const hub = new LiveHub();
    await hub.start(database);
    let roleKept = true;
    const checks: string[] = [];
    const keeps = subscriber(true);
    const loses = subscriber(true);
    const broken = subscriber(true);
    const visitor = subscriber(false);
    hub.subscribe({ ...keeps.value, stillAllowed: async () => (checks.push("keeps"), true) });
    hub.subscribe({ ...loses.value, stillAllowed: async () => (checks.push("loses"), roleKept) });
    hub.subscribe({ ...broken.value, stillAllowed: () => Promise.reject(new Error("database down")) });
    hub.subscribe(visitor.value);

    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    expect(checks.sort()).toEqual(["keeps", "loses"]);
    // An access that cannot be checked is not granted.
    expect(broken.isClosed()).toBe(true);
    expect(loses.isClosed()).toBe(false);

    roleKept = false;
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
    expect(loses.isClosed()).toBe(true);
    expect(keeps.isClosed()).toBe(false);
    expect(visitor.isClosed()).toBe(false);
    expect(hub.size).toBe(2);
    await hub.stop();
  });

  it(`holds at most ${MAX_STREAMS_PER_ADDRESS} streams per client address`, async () => {
    const hub = new LiveHub({ maxPerAddress: 2 });
    await hub.start(fakeDatabase());
    const first = hub.trySubscribe({ ...subscriber(false).value, address: "203.0.113.1" });
    const second = hub.trySubscribe({ ...subscriber(false).value, address: "203.0.113.1" });
    expect(first && second).toBeTruthy();
    expect(hub.trySubscribe({ ...subscriber(false).value, address: "203.0.113.1" })).toBeNull();
    expect(hub.trySubscribe({ ...subscriber(false).value, address: "203.0.113.2" })).toBeTruthy();
    first!();
    first!();
    expect(hub.countFor("203.0.113.1")).toBe(1);
    expect(hub.trySubscribe({ ...subscriber(false).value, address: "203.0.113.1" })).toBeTruthy();
    expect(MAX_STREAMS_PER_ADDRESS).toBe(10);
    await hub.stop();
    expect(hub.countFor("203.0.113.1")).toBe(0);
  });
});
