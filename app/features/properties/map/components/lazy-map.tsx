import { useEffect, useRef, useState, type ReactNode } from "react";
import { cn } from "~/lib/utils";

/** Puts a map into an element and returns what removes it. */
export type MountMap = (element: HTMLElement) => () => void;

/**
 * A map that costs nothing until it scrolls into view (issue 22, item 4; decision 018): a static
 * placeholder first, then, when the box meets the viewport, `load()` (a dynamic import of the map
 * chunk: Leaflet and its styles) fills it. The placeholder stays for browsers without
 * IntersectionObserver... which load at once, and when the chunk fails to load.
 */
export function LazyMap({ load, label, className, placeholder }: { load: () => Promise<MountMap>; label: string; className?: string; placeholder: ReactNode }) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const box = outer.current;
    const target = inner.current;
    if (!box || !target) return;
    let cancelled = false;
    let remove: (() => void) | undefined;
    const start = () => {
      loadRef.current().then(
        (mount) => {
          if (cancelled) return;
          remove = mount(target);
          setReady(true);
        },
        () => undefined,
      );
    };
    if (typeof IntersectionObserver === "undefined") {
      start();
      return () => {
        cancelled = true;
        remove?.();
      };
    }
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      start();
    });
    observer.observe(box);
    return () => {
      cancelled = true;
      observer.disconnect();
      remove?.();
    };
  }, []);

  return (
    <div ref={outer} className={cn("relative overflow-hidden rounded-lg border border-border bg-muted", className)} data-map-ready={ready ? "" : undefined}>
      {/* Leaflet owns this element's children; React never renders into it. */}
      <div ref={inner} role="region" aria-label={label} className="absolute inset-0 z-0" />
      {!ready && <div className="absolute inset-0 flex items-center justify-center p-4 text-center text-sm text-muted-foreground">{placeholder}</div>}
    </div>
  );
}
