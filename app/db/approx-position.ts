/**
 * The approximate position of a listing whose address is hidden (issue 22, item 4;
 * docs/decisions/018-location-and-map.md). The exact point moves by 150–400 m in a direction, both
 * taken from md5(id): the same listing always lands on the same approximate point, so reloading the
 * page (or comparing many loads) never narrows it down, and two listings on one street land apart.
 *
 * The database computes it in the `properties_public` view (APPROX_*_SQL below), so the exact
 * coordinates of a hidden address never leave it. `approximatePosition` is the same arithmetic in
 * JavaScript, for tests that check the view against it. Pure: no server imports.
 */

/** Offsets lie in [MIN, MAX) metres. */
export const APPROX_MIN_METRES = 150;
export const APPROX_MAX_METRES = 400;
/** The circle drawn around the approximate point: wider than the largest offset, so the true point lies inside. */
export const APPROX_CIRCLE_METRES = 500;
/** The mean Earth radius (IUGG), as haversine uses it. */
export const EARTH_RADIUS_METRES = 6_371_008.8;

/** Two fractions in [0, 1) from the first and second 8 hex digits of an md5 hex digest. */
export function offsetFractions(md5Hex: string): { direction: number; distance: number } {
  const direction = Number.parseInt(md5Hex.slice(0, 8), 16) / 2 ** 32;
  const distance = Number.parseInt(md5Hex.slice(8, 16), 16) / 2 ** 32;
  return { direction, distance };
}

/** The point moved by the offset md5Hex names (small-distance formula on a sphere). */
export function approximatePosition(md5Hex: string, latitude: number, longitude: number): { latitude: number; longitude: number } {
  const { direction, distance } = offsetFractions(md5Hex);
  const metres = APPROX_MIN_METRES + (APPROX_MAX_METRES - APPROX_MIN_METRES) * distance;
  const angle = 2 * Math.PI * direction;
  const radians = metres / EARTH_RADIUS_METRES;
  const dLat = radians * Math.cos(angle);
  const dLng = (radians * Math.sin(angle)) / Math.cos((latitude * Math.PI) / 180);
  return { latitude: latitude + (dLat * 180) / Math.PI, longitude: longitude + (dLng * 180) / Math.PI };
}

/** Great-circle distance in metres (tests and the decision record's claims). */
export function haversineMetres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METRES * Math.asin(Math.sqrt(h));
}

// The same arithmetic in SQL over the properties table's columns (PostgreSQL 15 and PGlite's 18).
// ('x' || 8 hex digits)::bit(32)::bigint reads them as an unsigned 32-bit number.
const fraction = (from: number) => `(('x' || substr(md5("id"::text), ${from}, 8))::bit(32)::bigint / 4294967296.0)`;
const metresSql = `(${APPROX_MIN_METRES} + ${APPROX_MAX_METRES - APPROX_MIN_METRES} * ${fraction(9)})`;
const angleSql = `(2 * pi() * ${fraction(1)})`;
const radiansSql = `(${metresSql} / ${EARTH_RADIUS_METRES})`;
const hidden = `not "display_address" and "latitude" is not null`;

/** The approximate latitude, only when the address is hidden and a position was set. */
export const APPROX_LATITUDE_SQL = `case when ${hidden} then "latitude" + degrees(${radiansSql} * cos(${angleSql})) end`;
/** The approximate longitude, only when the address is hidden and a position was set. */
export const APPROX_LONGITUDE_SQL = `case when ${hidden} then "longitude" + degrees(${radiansSql} * sin(${angleSql}) / cos(radians("latitude"))) end`;
