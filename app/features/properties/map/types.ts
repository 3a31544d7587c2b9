import type { TileConfig } from "./tiles";

/** The property page's map: a pin on the exact point, or a circle of `radius` metres around the approximate one. */
export type ListingMapData = {
  tiles: TileConfig;
  latitude: number;
  longitude: number;
  kind: "pin" | "circle";
  radius: number;
  /** The section's words, written by the loader (the component stays a renderer). */
  text: { intro: string; label: string; placeholder: string };
};

/** One result on the 'Mapa' view; `label` is the title and the price, made by the loader. */
export type MapPoint = { id: string; latitude: number; longitude: number; approximate: boolean; label: string };

export type ResultsMapData = {
  tiles: TileConfig;
  points: MapPoint[];
  withoutPosition: number;
  capped: boolean;
  /** The words under the map and the list's summary, written by the loader. */
  text: { note: string; summary: string };
};
