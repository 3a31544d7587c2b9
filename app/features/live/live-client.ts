/**
 * The browser's end of the live updates, loaded only after the page has loaded and gone idle
 * (use-live-updates.ts): a phone on 4G spends its first seconds on content, not on a stream.
 *
 * - One EventSource per tab, open only while the tab is visible: hidden tabs hold no connection
 *   (browsers allow six per site), and a tab that becomes visible again reloads once.
 * - A burst of events causes one reload per page, after a short random pause, so a hundred open
 *   pages do not all ask the server in the same millisecond.
 * - Lost connection: retry after 1, 2, 5, 10 s, then every 10 s; reload once when back.
 */

export type LiveTable = "properties" | "leads" | "visits" | "settings";
type Listener = { tables: LiveTable[]; onChange: () => void; due: boolean };

export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10000];
/** Quiet time after the last event before reloading, plus up to JITTER_MS at random. */
export const SETTLE_MS = 250;
export const JITTER_MS = 750;

const listeners = new Set<Listener>();
let source: EventSource | null = null;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let flushTimer: ReturnType<typeof setTimeout> | undefined;
let missedEvents = false;

function setStatus(status: "connecting" | "open" | "closed") {
  // For tests and for whoever debugs: <html data-live="open">.
  document.documentElement.dataset.live = status;
}

function markDue(table: LiveTable | "*") {
  let any = false;
  for (const listener of listeners) {
    if (table === "*" || listener.tables.includes(table)) {
      listener.due = true;
      any = true;
    }
  }
  if (!any) return;
  clearTimeout(flushTimer);
  flushTimer = setTimeout(flush, SETTLE_MS + Math.random() * JITTER_MS);
}

function flush() {
  flushTimer = undefined;
  for (const listener of listeners) {
    if (!listener.due) continue;
    listener.due = false;
    listener.onChange();
  }
}

function connect() {
  if (source || listeners.size === 0 || document.visibilityState !== "visible") return;
  setStatus("connecting");
  const next = new EventSource("/api/events");
  source = next;
  next.addEventListener("ready", () => {
    setStatus("open");
    attempt = 0;
    if (missedEvents) {
      missedEvents = false;
      markDue("*");
    }
  });
  next.addEventListener("change", (event) => {
    try {
      markDue((JSON.parse((event as MessageEvent<string>).data) as { table: LiveTable | "*" }).table);
    } catch {
      // Malformed event: ignore.
    }
  });
  next.onerror = () => {
    // Our own back-off instead of the browser's fixed retry.
    disconnect();
    missedEvents = true;
    setStatus("closed");
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)];
    attempt++;
    retryTimer = setTimeout(connect, delay);
  };
}

function disconnect() {
  clearTimeout(retryTimer);
  source?.close();
  source = null;
}

function onVisibilityChange() {
  if (document.visibilityState === "visible") {
    missedEvents = true;
    connect();
  } else {
    disconnect();
    setStatus("closed");
  }
}

/** Calls onChange (once per burst) whenever one of the tables changes. Returns the unsubscribe. */
export function subscribe(tables: LiveTable[], onChange: () => void): () => void {
  const listener: Listener = { tables, onChange, due: false };
  listeners.add(listener);
  if (listeners.size === 1) document.addEventListener("visibilitychange", onVisibilityChange);
  connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      document.removeEventListener("visibilitychange", onVisibilityChange);
      disconnect();
      setStatus("closed");
    }
  };
}
