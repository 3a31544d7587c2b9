import type { TileConfig } from "./tiles";

/** The property page's map: a pin on the exact point, or a circle of `radius` metres around the approximate one. */
export type ListingMapData = {
  tiles: TileConfig;
  latitude: number;
  longitude: number;
  kind: "pin" | "circle";
  radius: number;
};

/** One result on the 'Mapa' view; `label` is the title and the price, made by the loader. */
export type MapPoint = { id: string; latitude: number; longitude: number; approximate: boolean; label: string };

export type ResultsMapData = { tiles: TileConfig; points: MapPoint[]; withoutPosition: number; capped: boolean };
