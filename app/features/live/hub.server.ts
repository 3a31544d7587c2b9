import type { DatabaseHandle } from "~/db/client.server";

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

export type LiveTable = "properties" | "leads";
/** "*": events may have been missed (the listener reconnected); revalidate whatever you show. */
export type LiveEvent = { table: LiveTable | "*" };

export type LiveSubscriber = {
  staff: boolean;
  send(chunk: string): void;
  close(): void;
};

export function formatEvent(event: LiveEvent): string {
  return `event: change\ndata: ${JSON.stringify(event)}\n\n`;
}

export class LiveHub {
  private readonly subscribers = new Set<LiveSubscriber>();
  private pending = new Set<LiveTable | "*">();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  get size(): number {
    return this.subscribers.size;
  }

  async start(database: Pick<DatabaseHandle, "listen">): Promise<void> {
    this.unlisten = await database.listen(
      CHANGE_CHANNEL,
      (payload) => this.onNotification(payload),
      () => this.publish("*"),
    );
    this.heartbeat = setInterval(() => this.broadcast(": ping\n\n", () => true), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private onNotification(payload: string) {
    try {
      const { table } = JSON.parse(payload) as { table?: string };
      if (table === "properties" || table === "leads") this.publish(table);
    } catch {
      // Not ours: ignore.
    }
  }

  /** Queues a change; everything queued within COALESCE_MS goes out together. */
  publish(table: LiveTable | "*") {
    this.pending.add(table);
    this.flushTimer ??= setTimeout(() => this.flush(), COALESCE_MS);
  }

  private flush() {
    this.flushTimer = undefined;
    const tables = [...this.pending];
    this.pending.clear();
    for (const table of tables) {
      // Visitors never hear about leads.
      this.broadcast(formatEvent({ table }), (subscriber) => table !== "leads" || subscriber.staff);
    }
  }

  private broadcast(chunk: string, include: (subscriber: LiveSubscriber) => boolean) {
    for (const subscriber of this.subscribers) {
      if (!include(subscriber)) continue;
      try {
        subscriber.send(chunk);
      } catch {
        // The browser went away between two events.
        this.subscribers.delete(subscriber);
      }
    }
  }

  subscribe(subscriber: LiveSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
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
    await this.unlisten?.().catch(() => {});
    this.unlisten = undefined;
  }
}
