import { and, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { APPROX_CIRCLE_METRES } from "~/db/approx-position";
import { propertiesPublic } from "~/db/schema";
import { getEnv } from "~/lib/env.server";
import { priceText } from "../labels";
import type { ListFilters } from "../filters";
import { filterConditions } from "../public-queries.server";
import { MAP_RESULTS_CAP, MAP_RESULTS_CAP_TEXT, tileConfig, type TileConfig } from "./tiles";
import type { ListingMapData, ResultsMapData } from "./types";

/**
 * What the maps receive (issue 22, item 4; docs/decisions/018-location-and-map.md). Everything
 * comes from properties_public, which holds the exact point only when 'Exibir endereço' is on and
 * otherwise an approximate one (150–400 m off, stable per listing): a hidden address's exact
 * coordinates are never read here, so they cannot reach the HTML or `.data`.
 */


export function mapTiles(): TileConfig {
  return tileConfig(getEnv());
}

/** The property page's map, or null when the listing has no position. */
export async function getListingMap(db: Database, id: string, neighborhood: string): Promise<ListingMapData | null> {
  const [row] = await db
    .select({
      latitude: propertiesPublic.latitude,
      longitude: propertiesPublic.longitude,
      approx_latitude: propertiesPublic.approx_latitude,
      approx_longitude: propertiesPublic.approx_longitude,
    })
    .from(propertiesPublic)
    .where(eq(propertiesPublic.id, id));
  if (!row) return null;
  if (row.latitude !== null && row.longitude !== null) {
    return {
      tiles: mapTiles(),
      latitude: Number(row.latitude),
      longitude: Number(row.longitude),
      kind: "pin",
      radius: 0,
      text: {
        intro: `No mapa, o endereço do imóvel em ${neighborhood}.`,
        label: `Mapa com a posição do imóvel em ${neighborhood}`,
        placeholder: `Mapa de ${neighborhood}`,
      },
    };
  }
  if (row.approx_latitude !== null && row.approx_longitude !== null) {
    return {
      tiles: mapTiles(),
      latitude: round(Number(row.approx_latitude)),
      longitude: round(Number(row.approx_longitude)),
      kind: "circle",
      radius: APPROX_CIRCLE_METRES,
      text: {
        intro: `Localização aproximada em ${neighborhood}: o endereço exato é informado pelo corretor.`,
        label: `Mapa da região aproximada do imóvel em ${neighborhood}`,
        placeholder: `Mapa de ${neighborhood}`,
      },
    };
  }
  return null;
}

/** ~1 m: the approximate point needs no more digits. */
const round = (value: number) => Math.round(value * 1e5) / 1e5;



/** The list's current results that have a position, in the list's order, up to MAP_RESULTS_CAP. */
export async function listResultsMap(db: Database, filters: ListFilters, total: number): Promise<ResultsMapData> {
  const latitude = sql<number>`coalesce(${propertiesPublic.latitude}, ${propertiesPublic.approx_latitude})`;
  const longitude = sql<number>`coalesce(${propertiesPublic.longitude}, ${propertiesPublic.approx_longitude})`;
  const where = and(filterConditions(filters), isNotNull(latitude));
  const [{ placed }] = await db.select({ placed: count() }).from(propertiesPublic).where(where);
  const rows = await db
    .select({
      id: propertiesPublic.id,
      title: propertiesPublic.title,
      price: propertiesPublic.price,
      purpose: propertiesPublic.purpose,
      latitude,
      longitude,
      approximate: sql<boolean>`${propertiesPublic.latitude} is null`,
    })
    .from(propertiesPublic)
    .where(where)
    // The list's order (public-queries.server.ts), so a capped map keeps the list's first results.
    .orderBy(desc(propertiesPublic.featured), desc(propertiesPublic.created_at), desc(propertiesPublic.id))
    .limit(MAP_RESULTS_CAP);
  const withoutPosition = Math.max(0, total - placed);
  const capped = placed > MAP_RESULTS_CAP;
  const note = [
    "Imóveis com endereço reservado aparecem na região aproximada.",
    capped ? MAP_RESULTS_CAP_TEXT : "",
    withoutPosition === 1 ? "1 imóvel sem localização não aparece no mapa: veja a lista." : "",
    withoutPosition > 1 ? `${withoutPosition} imóveis sem localização não aparecem no mapa: veja a lista.` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return {
    text: { note, summary: rows.length === 1 ? "Ver o imóvel do mapa em lista" : `Ver os ${rows.length} imóveis do mapa em lista` },
    tiles: mapTiles(),
    points: rows.map((row) => ({
      id: row.id,
      latitude: row.approximate ? round(Number(row.latitude)) : Number(row.latitude),
      longitude: row.approximate ? round(Number(row.longitude)) : Number(row.longitude),
      approximate: Boolean(row.approximate),
      label: `${row.title} – ${priceText(Number(row.price), row.purpose)}${row.approximate ? " (região aproximada)" : ""}`,
    })),
    withoutPosition,
    capped,
  };
}
