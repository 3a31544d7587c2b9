import { useEffect, useRef } from "react";
import type { ResultsMapData } from "../types";

/**
 * The /imoveis 'Mapa' view (issue 22, item 4): the current results as clustered pins. The map is
 * this view's content, so Leaflet loads at once (no waiting for a scroll); this component itself
 * loads only in this view (React.lazy in routes/properties.tsx). The loader wrote the texts.
 */
export default function ResultsMap({ map }: { map: ResultsMapData }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let remove: (() => void) | undefined;
    let live = true;
    const target = element.current!;
    import("./results-map-leaflet").then((module) => {
      if (!live) return;
      remove = module.mountResultsMap(target, map);
      target.parentElement!.dataset.mapReady = "";
    }, () => 0);
    return () => {
      live = false;
      remove?.();
    };
  }, [map]);
  return (
    <div>
      <div className="relative h-[28rem] overflow-hidden rounded-lg border border-border bg-muted sm:h-[36rem]">
        <div ref={element} role="region" aria-label="Mapa dos imóveis encontrados" className="absolute inset-0 z-0" />
      </div>
      <p className="mt-2 text-sm text-muted-foreground">{map.text.note}</p>
      {/* The pins as a list too: for keyboards and screen readers, and where the map does not load. */}
      <details className="mt-3 rounded-lg border border-border bg-white p-3 text-sm">
        <summary className="cursor-pointer font-medium">{map.text.summary}</summary>
        <ul className="mt-2 grid gap-1" data-map-list>
          {map.points.map((point) => (
            <li key={point.id}>
              <a href={`/imoveis/${point.id}`} className="text-primary underline-offset-4 hover:underline">
                {point.label}
              </a>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
