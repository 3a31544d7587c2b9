import { LazyMap } from "./lazy-map";
import type { ListingMapData } from "../types";

/**
 * The property page's 'Localização' map (issue 22, item 4): a pin on the address when the broker
 * shows it, a circle around an approximate point when not. The loader computed everything.
 */
export function ListingMap({ map, neighborhood }: { map: ListingMapData; neighborhood: string }) {
  const approximate = map.kind === "circle";
  return (
    <section aria-labelledby="map-heading">
      <h2 id="map-heading" className="text-xl font-semibold">
        Localização
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {approximate ? `Localização aproximada em ${neighborhood}: o endereço exato é informado pelo corretor.` : `No mapa, o endereço do imóvel em ${neighborhood}.`}
      </p>
      <LazyMap
        className="mt-3 h-64 sm:h-80"
        label={approximate ? `Mapa da região aproximada do imóvel em ${neighborhood}` : `Mapa com a posição do imóvel em ${neighborhood}`}
        placeholder={<span>Mapa de {neighborhood}</span>}
        load={() => import("./leaflet-maps").then((module) => (element: HTMLElement) => module.mountListingMap(element, map))}
      />
    </section>
  );
}
