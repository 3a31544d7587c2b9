import type { DatabaseHandle } from "~/db/client.server";
import { errorFields, logger } from "~/lib/logger.server";

/**
 * Live updates inside one app process. The database tells us which table changed (a trigger
 * calls pg_notify, whoever made the change); we listen once per process and pass the news to the
 * open Server-Sent Events streams. Visitors learn only that properties changed; lead changes go
 * to staff streams only. Several processes each listen, so a change made through one reaches
 * browsers connected to any of them.
 */

export const CHANGE_CHANNEL = "app_changes";
export const HEARTBEAT_MS = 25_000;
/** Changes within this window go out as one event per table (a bulk import is one reload). */
export const COALESCE_MS = 50;
/** Open streams one client address may hold (a few browsers behind one office router). */
export const MAX_STREAMS_PER_ADDRESS = 10;

/** Tables whose changes reach browsers; lead_events arrive as "leads" (a lead's timeline changed). */
export type LiveTable = "properties" | "leads" | "visits" | "settings";
/** Only staff streams hear about these: they are people's data. */
const STAFF_ONLY: ReadonlySet<LiveTable | "*"> = new Set(["leads", "visits"]);
const FROM_DATABASE: Record<string, LiveTable> = {
  properties: "properties",
  leads: "leads",
  lead_events: "leads",
  visits: "visits",
  settings: "settings",
  // The broker's neighbourhood texts are public site text, as the settings are (decision 021).
  neighbourhood_texts: "settings",
};
/** "*": events may have been missed (the listener reconnected); revalidate whatever you show. */
export type LiveEvent = { table: LiveTable | "*" };

export type LiveSubscriber = {
  staff: boolean;
  send(chunk: string): void;
  close(): void;
  /** The client's address, for the per-address cap. */
  address?: string;
  /**
   * Asked at every heartbeat for staff streams: is the session still open and the role still
   * there? False (or an error) ends the stream, so a removed corretor stops hearing about leads.
   */
  stillAllowed?: () => Promise<boolean>;
};

export type LiveHubOptions = { heartbeatMs?: number; maxPerAddress?: number };

const log = logger("live");

export function formatEvent(event: LiveEvent): string {
  return `event: change\ndata: ${JSON.stringify(event)}\n\n`;
}

export class LiveHub {
  private readonly subscribers = new Set<LiveSubscriber>();
  private pending = new Set<LiveTable | "*">();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly perAddress = new Map<string, number>();
  private readonly changeListeners = new Set<(table: LiveTable | "*") => void>();
  private rechecking = false;
  private readonly heartbeatMs: number;
  private readonly maxPerAddress: number;

  constructor(options: LiveHubOptions = {}) {
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.maxPerAddress = options.maxPerAddress ?? MAX_STREAMS_PER_ADDRESS;
  }

  get size(): number {
    return this.subscribers.size;
  }

  async start(database: Pick<DatabaseHandle, "listen">): Promise<void> {
    this.unlisten = await database.listen(
      CHANGE_CHANNEL,
      (payload) => this.onNotification(payload),
      () => this.publish("*"),
    );
    this.heartbeat = setInterval(() => {
      this.broadcast(": ping\n\n", () => true);
      void this.recheck();
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  private onNotification(payload: string) {
    try {
      const { table } = JSON.parse(payload) as { table?: string };
      const live = table ? FROM_DATABASE[table] : undefined;
      if (live) this.publish(live);
    } catch {
      // Not ours: ignore.
    }
  }

  /**
   * Hears every change as soon as it arrives, before the coalescing window: a process-wide cache
   * (the public page cache) must drop its entries before any request can read them again.
   */
  onChange(listener: (table: LiveTable | "*") => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Queues a change; everything queued within COALESCE_MS goes out together. */
  publish(table: LiveTable | "*") {
    for (const listener of this.changeListeners) {
      try {
        listener(table);
      } catch (error) {
        log.error({ ...errorFields(error) }, "change listener failed");
      }
    }
    this.pending.add(table);
    this.flushTimer ??= setTimeout(() => this.flush(), COALESCE_MS);
  }

  private flush() {
    this.flushTimer = undefined;
    const tables = [...this.pending];
    this.pending.clear();
    for (const table of tables) {
      // Visitors never hear about leads or visits.
      this.broadcast(formatEvent({ table }), (subscriber) => !STAFF_ONLY.has(table) || subscriber.staff);
    }
  }

  private broadcast(chunk: string, include: (subscriber: LiveSubscriber) => boolean) {
    for (const subscriber of this.subscribers) {
      if (!include(subscriber)) continue;
      try {
        subscriber.send(chunk);
      } catch {
        // The browser went away between two events.
        this.remove(subscriber);
      }
    }
  }

  subscribe(subscriber: LiveSubscriber): () => void {
    this.add(subscriber);
    return () => this.remove(subscriber);
  }

  /** Like subscribe, unless the subscriber's address already holds the most streams: null. */
  trySubscribe(subscriber: LiveSubscriber): (() => void) | null {
    if (subscriber.address !== undefined && this.countFor(subscriber.address) >= this.maxPerAddress) return null;
    return this.subscribe(subscriber);
  }

  /** Open streams of one client address. */
  countFor(address: string): number {
    return this.perAddress.get(address) ?? 0;
  }

  private add(subscriber: LiveSubscriber) {
    if (this.subscribers.has(subscriber)) return;
    this.subscribers.add(subscriber);
    if (subscriber.address !== undefined) this.perAddress.set(subscriber.address, this.countFor(subscriber.address) + 1);
  }

  private remove(subscriber: LiveSubscriber) {
    if (!this.subscribers.delete(subscriber)) return;
    if (subscriber.address === undefined) return;
    const left = this.countFor(subscriber.address) - 1;
    if (left > 0) this.perAddress.set(subscriber.address, left);
    else this.perAddress.delete(subscriber.address);
  }

  /** Ends the streams whose session or role is gone (one round at a time). */
  async recheck(): Promise<void> {
    if (this.rechecking) return;
    this.rechecking = true;
    try {
      const checked = [...this.subscribers].filter((subscriber) => subscriber.stillAllowed);
      await Promise.all(
        checked.map(async (subscriber) => {
          const allowed = await subscriber.stillAllowed!().catch((error) => {
            log.warn({ ...errorFields(error) }, "stream access could not be checked; closing the stream");
            return false;
          });
          if (allowed || !this.subscribers.has(subscriber)) return;
          this.remove(subscriber);
          try {
            subscriber.close();
          } catch {
            // Already closed.
          }
        }),
      );
    } finally {
      this.rechecking = false;
    }
  }

  /** Ends every stream (first thing on shutdown: open streams keep a server from closing). */
  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    clearTimeout(this.flushTimer);
    for (const subscriber of this.subscribers) {
      try {
        subscriber.close();
      } catch {
        // Already closed.
      }
    }
    this.subscribers.clear();
    this.perAddress.clear();
    await this.unlisten?.().catch(() => {});
    this.unlisten = undefined;
  }
}
