/**
 * Where map tiles come from (issue 22, item 4). OpenStreetMap's own tile server by default, with
 * the attribution its tile usage policy asks for; MAP_TILE_URL / MAP_ATTRIBUTION choose another
 * provider (and the tests point it at a tile server of their own). Pure: no server imports.
 */
export const DEFAULT_TILE_URL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
export const DEFAULT_ATTRIBUTION = "© colaboradores do OpenStreetMap";

export type TileConfig = { url: string; attribution: string };

export function tileConfig(env: { MAP_TILE_URL?: string; MAP_ATTRIBUTION?: string }): TileConfig {
  return { url: env.MAP_TILE_URL ?? DEFAULT_TILE_URL, attribution: env.MAP_ATTRIBUTION ?? DEFAULT_ATTRIBUTION };
}

/**
 * The CSP source the tiles need in img-src: the template's origin, with `*.` in front of the host
 * when it names subdomains ({s}.tile.example.org).
 */
export function tileImageSource(url: string): string {
  const match = /^(https?):\/\/([^/?#]+)/.exec(url);
  if (!match) return "";
  const host = match[2].replace(/^\{s\}\./, "*.");
  return `${match[1]}://${host}`;
}

/** The 'Mapa' view shows at most this many results (the list's first ones). */
export const MAP_RESULTS_CAP = 500;
export const MAP_RESULTS_CAP_TEXT = `O mapa mostra os primeiros ${MAP_RESULTS_CAP} imóveis: use os filtros para ver os outros.`;
