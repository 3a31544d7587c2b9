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
    </div>
  );
}
