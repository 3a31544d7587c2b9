import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPROX_MAX_METRES, APPROX_MIN_METRES, approximatePosition, haversineMetres } from "~/db/approx-position";
import { loader as listLoader } from "~/routes/properties";
import { loader as propertyLoader } from "~/routes/property";
import { listPage } from "../helpers/list-page";
import { insertProperty, makeRequest } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Location and map (issue 22, item 4; docs/decisions/018): the public view moves a hidden address's
 * point 150–400 m, the same way on every read, and the exact coordinates reach neither the property
 * page's data nor the 'Mapa' view; the map view holds exactly the list's listings that have a position.
 */

// Coordinates with digits no other number on the page has, so a search for them means something.
const EXACT = { latitude: -5.873219, longitude: -35.198347 };
const SHOWN = { latitude: -5.861537, longitude: -35.187261 };
const NEIGHBORHOOD = "Bairro do Mapa";
const context = { cspNonce: "n", clientIp: "198.51.100.77" };
const md5 = (text: string) => crypto.createHash("md5").update(text).digest("hex");

describe.each(DATABASE_KINDS)("location and map on %s", (kind) => {
  let test: TestRuntime;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    const base = { neighborhood: NEIGHBORHOOD, street_address: "Rua Secreta do Mapa", address_number: "4321", cep: "59000-123" };
    ids.hidden = (await insertProperty(test.runtime, { ...base, codigo: "MAPA-OCULTO", display_address: false, ...EXACT })).id;
    ids.shown = (await insertProperty(test.runtime, { ...base, codigo: "MAPA-VISIVEL", display_address: true, ...SHOWN })).id;
    ids.none = (await insertProperty(test.runtime, { ...base, codigo: "MAPA-SEM", display_address: false })).id;
  });
  afterAll(async () => {
    await test.stop();
  });

  const viewRow = async (id: string) =>
    ((await test.runtime.db.execute(sql`select latitude, longitude, approx_latitude, approx_longitude from properties_public where id = ${id}`)) as unknown as {
      rows: { latitude: number | null; longitude: number | null; approx_latitude: number | null; approx_longitude: number | null }[];
    }).rows[0];

  it("gives a hidden address an approximate point 150–400 m away, the same on every read and as the JavaScript computes it", async () => {
    const first = await viewRow(ids.hidden);
    expect(first.latitude).toBeNull();
    expect(first.longitude).toBeNull();
    const approx = { latitude: Number(first.approx_latitude), longitude: Number(first.approx_longitude) };
    const metres = haversineMetres(EXACT, approx);
    expect(metres).toBeGreaterThanOrEqual(APPROX_MIN_METRES - 0.01);
    expect(metres).toBeLessThan(APPROX_MAX_METRES + 0.01);
    const expected = approximatePosition(md5(ids.hidden), EXACT.latitude, EXACT.longitude);
    expect(approx.latitude).toBeCloseTo(expected.latitude, 9);
    expect(approx.longitude).toBeCloseTo(expected.longitude, 9);
    for (let read = 0; read < 3; read++) expect(await viewRow(ids.hidden)).toEqual(first);
  });

  it("gives a shown address its exact point and no approximate one; no position, neither", async () => {
    expect(await viewRow(ids.shown)).toEqual({ ...SHOWN, approx_latitude: null, approx_longitude: null });
    expect(await viewRow(ids.none)).toEqual({ latitude: null, longitude: null, approx_latitude: null, approx_longitude: null });
  });

  it("sends the property page a circle for a hidden address, and nothing of the exact point or the street", async () => {
    const result = (await propertyLoader({ request: makeRequest(`/imoveis/${ids.hidden}`), params: { id: ids.hidden }, context } as never)) as {
      map: { kind: string; radius: number; latitude: number; longitude: number } | null;
    };
    expect(result.map).toMatchObject({ kind: "circle", radius: 500 });
    expect(haversineMetres(EXACT, result.map!)).toBeGreaterThan(APPROX_MIN_METRES - 2);
    const json = JSON.stringify(result);
    // The exact values and the hidden address's parts. (Not shorter prefixes of one coordinate:
    // an offset due north leaves the longitude's first decimals as they were, which tells nothing.)
    for (const secret of ["5.873219", "35.198347", "Rua Secreta", '"4321"', "59000-123"]) expect(json).not.toContain(secret);
    expect(Math.abs(result.map!.latitude - EXACT.latitude) + Math.abs(result.map!.longitude - EXACT.longitude)).toBeGreaterThan(0.001);
  });

  it("sends a pin on the exact point when the address is shown, and no map without a position", async () => {
    const shown = (await propertyLoader({ request: makeRequest(`/imoveis/${ids.shown}`), params: { id: ids.shown }, context } as never)) as { map: unknown };
    expect(shown.map).toMatchObject({ kind: "pin", ...SHOWN });
    const none = (await propertyLoader({ request: makeRequest(`/imoveis/${ids.none}`), params: { id: ids.none }, context } as never)) as { map: unknown };
    expect(none.map).toBeNull();
  });

  it("puts on the 'Mapa' view exactly the list's listings that have a position, the hidden one approximately", async () => {
    const query = `bairro=${encodeURIComponent(NEIGHBORHOOD)}`;
    const list = listPage(await listLoader({ request: makeRequest(`/imoveis?${query}`), params: {}, context } as never));
    expect(list.view).toBe("lista");
    expect(list.resultsMap).toBeNull();
    const mapped = listPage(await listLoader({ request: makeRequest(`/imoveis?${query}&visualizacao=mapa`), params: {}, context } as never));
    expect(mapped.view).toBe("mapa");
    const points = mapped.resultsMap!.points;
    expect(points.map((point) => point.id).sort()).toEqual(list.properties.map((card) => card.id).filter((id) => id !== ids.none).sort());
    expect(mapped.resultsMap!.withoutPosition).toBe(1);
    expect(points.find((point) => point.id === ids.shown)).toMatchObject({ ...SHOWN, approximate: false });
    const hidden = points.find((point) => point.id === ids.hidden)!;
    expect(hidden.approximate).toBe(true);
    expect(haversineMetres(EXACT, hidden)).toBeGreaterThan(APPROX_MIN_METRES - 2);
    const json = JSON.stringify(mapped);
    for (const secret of ["5.873219", "35.198347", "Rua Secreta"]) expect(json).not.toContain(secret);
  });

  it("reads any other visualizacao as the list", async () => {
    const page = listPage(await listLoader({ request: makeRequest("/imoveis?visualizacao=%3Cscript%3E"), params: {}, context } as never));
    expect(page.view).toBe("lista");
    expect(page.resultsMap).toBeNull();
  });
});
