import { useEffect, useRef } from "react";
import type { ListingMapData } from "../types";

/**
 * The property page's 'Localização' map (issue 22, item 4; decision 018): a pin on the address when
 * the broker shows it, a circle around an approximate point when not. It costs nothing until it
 * scrolls into view: a static placeholder first; when the box meets the viewport, a dynamic import
 * of the map chunk (Leaflet and its styles) fills it, and if that fails the placeholder stays.
 * The loader wrote every text. No React state: the box gets `data-map-ready` and the placeholder
 * `hidden` straight in the DOM — every byte counts on this page (docs/decisions/003). `map` is read
 * once: the page keys this component by the position.
 */
export function ListingMap({ map }: { map: ListingMapData }) {
  const inner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = inner.current!;
    let remove: (() => void) | undefined;
    let live = true;
    const observer = new IntersectionObserver((entries) => {
      if (!entries[0].isIntersecting) return;
      observer.disconnect();
      import("./leaflet-maps").then((module) => {
        if (!live) return;
        remove = module.mountListingMap(target, map);
        target.parentElement!.dataset.mapReady = "";
        (target.nextSibling as HTMLElement).hidden = true;
      }, () => 0);
    });
    observer.observe(target);
    return () => {
      live = false;
      observer.disconnect();
      remove?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once; the page keys this component by the position
  }, []);

  return (
    <section aria-labelledby="map-heading">
      <h2 id="map-heading" className="text-xl font-semibold">
        Localização
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">{map.text.intro}</p>
      <div className="relative mt-3 h-64 overflow-hidden rounded-lg border border-border bg-muted sm:h-80">
        {/* Leaflet owns this element's children; React never renders into it. */}
        <div ref={inner} role="region" aria-label={map.text.label} className="absolute inset-0 z-0" />
        <div className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">{map.text.placeholder}</div>
      </div>
    </section>
  );
}
