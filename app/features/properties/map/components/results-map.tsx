import { LazyMap } from "./lazy-map";
import type { ResultsMapData } from "../types";
import { MAP_RESULTS_CAP_TEXT } from "../tiles";

/** The /imoveis 'Mapa' view (issue 22, item 4): the current results as clustered pins. */
export function ResultsMap({ map }: { map: ResultsMapData }) {
  const notes = [
    map.capped ? MAP_RESULTS_CAP_TEXT : null,
    map.withoutPosition > 0 ? `${map.withoutPosition} ${map.withoutPosition === 1 ? "imóvel sem localização não aparece" : "imóveis sem localização não aparecem"} no mapa: veja a lista.` : null,
  ].filter(Boolean);
  return (
    <div>
      <LazyMap
        className="h-[28rem] sm:h-[36rem]"
        label="Mapa dos imóveis encontrados"
        placeholder={<span>Carregando o mapa…</span>}
        load={() => import("./results-map-leaflet").then((module) => (element: HTMLElement) => module.mountResultsMap(element, map))}
      />
      <p className="mt-2 text-sm text-muted-foreground">
        Imóveis com endereço reservado aparecem na região aproximada. {notes.join(" ")}
      </p>
      {/* The pins as a list too: for keyboards and screen readers, and where the map does not load. */}
      <details className="mt-3 rounded-lg border border-border bg-white p-3 text-sm">
        <summary className="cursor-pointer font-medium">
          Ver {map.points.length === 1 ? "o imóvel do mapa" : `os ${map.points.length} imóveis do mapa`} em lista
        </summary>
        <ul className="mt-2 grid gap-1" data-map-list>
          {map.points.map((point) => (
            <li key={point.id}>
              <a href={`/imoveis/${point.id}`} className="text-primary underline-offset-4 hover:underline">
                {point.label}
              </a>
              {point.approximate && <span className="text-muted-foreground"> (região aproximada)</span>}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
