import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** A stand-in for the browser's EventSource (the network is not what this test is about). */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  listeners = new Map<string, ((event: { data: string }) => void)[]>();
  onerror: (() => void) | null = null;
  closed = false;
  constructor(public url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, data = "{}") {
    for (const listener of this.listeners.get(type) ?? []) listener({ data });
  }
  close() {
    this.closed = true;
  }
  static get last() {
    return FakeEventSource.instances.at(-1)!;
  }
}

async function freshClient() {
  vi.resetModules();
  return import("./live-client");
}

describe("live client", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.instances = [];
    vi.stubGlobal("EventSource", FakeEventSource);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("reloads once for a burst of events, after a short random pause", async () => {
    const client = await freshClient();
    const onChange = vi.fn();
    const unsubscribe = client.subscribe(["properties"], onChange);
    const source = FakeEventSource.last;
    source.emit("ready");
    for (let i = 0; i < 20; i++) source.emit("change", JSON.stringify({ table: "properties" }));
    vi.advanceTimersByTime(client.SETTLE_MS - 1);
    expect(onChange).not.toHaveBeenCalled();
    vi.advanceTimersByTime(client.JITTER_MS + 1);
    expect(onChange).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it("reloads only the pages that show the table that changed", async () => {
    const client = await freshClient();
    const list = vi.fn();
    const dashboard = vi.fn();
    client.subscribe(["properties"], list);
    client.subscribe(["properties", "leads"], dashboard);
    FakeEventSource.last.emit("change", JSON.stringify({ table: "leads" }));
    vi.advanceTimersByTime(client.SETTLE_MS + client.JITTER_MS);
    expect(list).not.toHaveBeenCalled();
    expect(dashboard).toHaveBeenCalledTimes(1);
  });

  it("reconnects after 1, 2, 5, 10 s, then every 10 s, and reloads once when back", async () => {
    const client = await freshClient();
    const onChange = vi.fn();
    client.subscribe(["properties"], onChange);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const failing = FakeEventSource.last;
      failing.onerror!();
      expect(failing.closed).toBe(true);
      const before = FakeEventSource.instances.length;
      let waited = 0;
      while (FakeEventSource.instances.length === before) {
        vi.advanceTimersByTime(100);
        waited += 100;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1000, 2000, 5000, 10000, 10000, 10000]);
    FakeEventSource.last.emit("ready");
    vi.advanceTimersByTime(client.SETTLE_MS + client.JITTER_MS);
    expect(onChange).toHaveBeenCalledTimes(1);
    // A good connection resets the back-off.
    FakeEventSource.last.onerror!();
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.instances.length).toBe(8);
  });

  it("holds no connection in a hidden tab, and reloads when the tab is shown again", async () => {
    const client = await freshClient();
    const onChange = vi.fn();
    client.subscribe(["properties"], onChange);
    const first = FakeEventSource.last;
    const visibility = vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    document.dispatchEvent(new Event("visibilitychange"));
    expect(first.closed).toBe(true);
    visibility.mockReturnValue("visible");
    document.dispatchEvent(new Event("visibilitychange"));
    const second = FakeEventSource.last;
    expect(second).not.toBe(first);
    second.emit("ready");
    vi.advanceTimersByTime(client.SETTLE_MS + client.JITTER_MS);
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it("closes the stream when the last page stops listening", async () => {
    const client = await freshClient();
    const unsubscribe = client.subscribe(["leads"], () => {});
    unsubscribe();
    expect(FakeEventSource.last.closed).toBe(true);
    expect(document.documentElement.dataset.live).toBe("closed");
  });
});
