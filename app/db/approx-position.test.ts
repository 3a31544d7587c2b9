import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { APPROX_CIRCLE_METRES, APPROX_MAX_METRES, APPROX_MIN_METRES, approximatePosition, haversineMetres, offsetFractions } from "./approx-position";

const md5 = (text: string) => crypto.createHash("md5").update(text).digest("hex");

describe("approximatePosition", () => {
  const exact = { latitude: -5.8812, longitude: -35.1776 };

  it("is the same point every time for one listing", () => {
    const id = "7f1b0a9e-2b51-4c3e-9d1a-0c7e6f1d2a33";
    expect(approximatePosition(md5(id), exact.latitude, exact.longitude)).toEqual(approximatePosition(md5(id), exact.latitude, exact.longitude));
  });

  it("lands 150 to 400 metres from the exact point, inside the circle drawn around it, for many ids", () => {
    const distances: number[] = [];
    for (let index = 0; index < 2000; index++) {
      const moved = approximatePosition(md5(crypto.randomUUID()), exact.latitude, exact.longitude);
      const metres = haversineMetres(exact, moved);
      distances.push(metres);
      expect(metres).toBeGreaterThanOrEqual(APPROX_MIN_METRES - 0.01);
      expect(metres).toBeLessThan(APPROX_MAX_METRES + 0.01);
      expect(metres).toBeLessThan(APPROX_CIRCLE_METRES);
    }
    // Not one fixed distance: the offsets spread over the range.
    expect(Math.min(...distances)).toBeLessThan(200);
    expect(Math.max(...distances)).toBeGreaterThan(350);
  });

  it("keeps the distance far from the equator too (the longitude step widens with the latitude)", () => {
    const north = { latitude: 60, longitude: 10 };
    for (let index = 0; index < 200; index++) {
      const metres = haversineMetres(north, approximatePosition(md5(String(index)), north.latitude, north.longitude));
      expect(metres).toBeGreaterThanOrEqual(APPROX_MIN_METRES - 0.01);
      expect(metres).toBeLessThan(APPROX_MAX_METRES + 0.01);
    }
  });

  it("moves different listings in different directions", () => {
    const directions = new Set(Array.from({ length: 50 }, (_, index) => Math.floor(offsetFractions(md5(`id-${index}`)).direction * 8)));
    expect(directions.size).toBeGreaterThan(4);
  });
});
