import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import type { LiveTable } from "./live-client";

/** Runs `work` once the page has loaded and the browser is idle (never before first paint). */
function whenSettled(work: () => void): () => void {
  let cancelled = false;
  let idleHandle: number | undefined;
  const schedule = () => {
    if (cancelled) return;
    // Safari has no requestIdleCallback: a short delay after load does the same job there.
    if (typeof window.requestIdleCallback === "function") idleHandle = window.requestIdleCallback(() => !cancelled && work(), { timeout: 4000 });
    else idleHandle = setTimeout(() => !cancelled && work(), 1500) as unknown as number;
  };
  if (document.readyState === "complete") schedule();
  else window.addEventListener("load", schedule, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener("load", schedule);
    if (idleHandle !== undefined) {
      if (typeof window.cancelIdleCallback === "function") window.cancelIdleCallback(idleHandle);
      clearTimeout(idleHandle);
    }
  };
}

/**
 * Keeps this page's data fresh: when one of `tables` changes in the database (through any app
 * process, the CLI or a SQL console), the page's loaders run again. The stream's code loads
 * after the page is idle, so it costs nothing on the first download.
 */
export function useLiveUpdates(...tables: LiveTable[]) {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  const key = tables.join(",");

  useEffect(() => {
    let unsubscribe = () => {};
    let cancelled = false;
    const stopWaiting = whenSettled(() => {
      void import("./live-client").then((client) => {
        if (cancelled) return;
        unsubscribe = client.subscribe(key.split(",") as LiveTable[], () => void latest.current.revalidate());
      });
    });
    return () => {
      cancelled = true;
      stopWaiting();
      unsubscribe();
    };
  }, [key]);
}
