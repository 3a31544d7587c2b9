import L from "leaflet";
import "leaflet/dist/leaflet.css";
import "./map.css";
import type { TileConfig } from "../tiles";
import type { ListingMapData } from "../types";

/**
 * The maps themselves (Leaflet 1.9.4), in a chunk of their own that only a map scrolled into view
 * loads (lazy-map.tsx). Markers are drawn as inline SVG (divIcon), not Leaflet's PNG icons, whose
 * paths a bundler breaks. Issue 22, item 4; docs/decisions/018-location-and-map.md.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function baseMap(element: HTMLElement, tiles: TileConfig, options: L.MapOptions = {}): L.Map {
  const map = L.map(element, { scrollWheelZoom: false, zoomControl: false, ...options });
  L.control.zoom({ zoomInTitle: "Aproximar", zoomOutTitle: "Afastar" }).addTo(map);
  map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  L.tileLayer(tiles.url, { attribution: escapeHtml(tiles.attribution), maxZoom: 19, subdomains: "abc" }).addTo(map);
  return map;
}

const PIN_SVG =
  '<svg viewBox="0 0 24 32" width="30" height="40" aria-hidden="true" focusable="false"><path d="M12 0C5.4 0 0 5.3 0 11.9 0 20.8 12 32 12 32s12-11.2 12-20.1C24 5.3 18.6 0 12 0z" fill="#0f4c81" stroke="#fff" stroke-width="1.5"/><circle cx="12" cy="12" r="4.5" fill="#fff"/></svg>';

export function pinIcon(): L.DivIcon {
  return L.divIcon({ className: "map-pin", html: PIN_SVG, iconSize: [30, 40], iconAnchor: [15, 40] });
}

/** The property page: a pin on the shown address, or the circle around the approximate point. */
export function mountListingMap(element: HTMLElement, data: ListingMapData): () => void {
  const center: L.LatLngTuple = [data.latitude, data.longitude];
  const map = baseMap(element, data.tiles);
  if (data.kind === "pin") {
    map.setView(center, 16);
    L.marker(center, { icon: pinIcon(), keyboard: false, interactive: false }).addTo(map);
  } else {
    // The circle measures itself through the map's projection: the map needs a view first.
    map.setView(center, 15);
    const circle = L.circle(center, { radius: data.radius, color: "#0f4c81", weight: 2, fillOpacity: 0.15, interactive: false }).addTo(map);
    map.fitBounds(circle.getBounds(), { padding: [12, 12] });
    element.dataset.mapCircle = "";
  }
  return () => map.remove();
}

/**
 * The CRM's pin (the form's 'Localização'): dragged, or placed by a click/tap on the map; `set`
 * moves it when the broker types coordinates, `set(null)` removes it.
 */
export function mountPinPicker(
  element: HTMLElement,
  tiles: TileConfig,
  initial: { latitude: number; longitude: number } | null,
  fallbackCenter: L.LatLngTuple,
  onChange: (position: { latitude: number; longitude: number }) => void,
): { remove: () => void; set: (position: { latitude: number; longitude: number } | null) => void } {
  const map = baseMap(element, tiles, { scrollWheelZoom: true });
  let marker: L.Marker | null = null;
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  const report = (latlng: L.LatLng) => onChange({ latitude: round(latlng.lat), longitude: round(L.Util.wrapNum(latlng.lng, [-180, 180], true)) });
  const place = (latlng: L.LatLngExpression) => {
    if (marker) marker.setLatLng(latlng);
    else {
      marker = L.marker(latlng, { icon: pinIcon(), draggable: true, autoPan: true, keyboard: false, title: "Posição do imóvel" }).addTo(map);
      marker.on("dragend", () => marker && report(marker.getLatLng()));
    }
  };
  map.on("click", (event: L.LeafletMouseEvent) => {
    place(event.latlng);
    report(event.latlng);
  });
  if (initial) {
    place([initial.latitude, initial.longitude]);
    map.setView([initial.latitude, initial.longitude], 16);
  } else map.setView(fallbackCenter, 13);
  return {
    remove: () => map.remove(),
    set: (position) => {
      if (!position) {
        marker?.remove();
        marker = null;
        return;
      }
      place([position.latitude, position.longitude]);
      map.panTo([position.latitude, position.longitude]);
    },
  };
}
