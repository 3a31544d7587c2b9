import L from "leaflet";
import Supercluster from "supercluster";
import type { ResultsMapData } from "../types";
import { baseMap, pinIcon } from "./leaflet-maps";

/**
 * The /imoveis 'Mapa' view: the results' pins, clustered by supercluster as the map moves. Each pin
 * is a link to its listing (a real <a>, so keyboard and screen readers reach it); a cluster is a
 * button that zooms in on its pins.
 */
export function mountResultsMap(element: HTMLElement, data: ResultsMapData): () => void {
  const map = baseMap(element, data.tiles);
  const index = new Supercluster<{ id: string; label: string; approximate: boolean }>({ radius: 60, maxZoom: 17 });
  index.load(
    data.points.map((point) => ({
      type: "Feature" as const,
      geometry: { type: "Point" as const, coordinates: [point.longitude, point.latitude] },
      properties: { id: point.id, label: point.label, approximate: point.approximate },
    })),
  );
  const layer = L.layerGroup().addTo(map);
  const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

  const draw = () => {
    layer.clearLayers();
    const bounds = map.getBounds();
    const clusters = index.getClusters([bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()], Math.round(map.getZoom()));
    for (const feature of clusters) {
      const [lng, lat] = feature.geometry.coordinates;
      const props = feature.properties as { cluster?: boolean; cluster_id?: number; point_count?: number; id?: string; label?: string };
      if (props.cluster) {
        const size = props.point_count! < 10 ? 36 : props.point_count! < 100 ? 44 : 52;
        const icon = L.divIcon({
          className: "map-cluster",
          html: `<button type="button" class="map-cluster-button" style="width:${size}px;height:${size}px" aria-label="${props.point_count} imóveis nesta área: aproximar">${props.point_count}</button>`,
          iconSize: [size, size],
        });
        const marker = L.marker([lat, lng], { icon, keyboard: false }).addTo(layer);
        marker.on("click", () => map.setView([lat, lng], Math.min(index.getClusterExpansionZoom(props.cluster_id!), 18)));
      } else {
        const icon = L.divIcon({
          className: "map-pin",
          html: `<a href="/imoveis/${escape(props.id!)}" data-map-pin aria-label="${escape(props.label!)}" title="${escape(props.label!)}">${pinIcon().options.html}</a>`,
          iconSize: [30, 40],
          iconAnchor: [15, 40],
        });
        L.marker([lat, lng], { icon, keyboard: false }).addTo(layer);
      }
    }
  };

  if (data.points.length > 0) {
    map.fitBounds(L.latLngBounds(data.points.map((point) => [point.latitude, point.longitude] as L.LatLngTuple)), { padding: [40, 40], maxZoom: 16 });
  } else map.setView([-5.8, -35.21], 12);
  map.on("moveend", draw);
  draw();
  return () => map.remove();
}
