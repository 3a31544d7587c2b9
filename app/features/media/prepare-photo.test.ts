import { describe, expect, it } from "vitest";
import { fitWithin, isHeic, jpegName, MAX_SIDE } from "./prepare-photo";

describe("photos from a phone", () => {
  it("fits the longest side within the limit, keeping the proportions", () => {
    expect(fitWithin(4032, 3024)).toEqual({ width: MAX_SIDE, height: 1500 });
    expect(fitWithin(3024, 4032)).toEqual({ width: 1500, height: MAX_SIDE });
    expect(fitWithin(8000, 1000, 1600)).toEqual({ width: 1600, height: 200 });
  });

  it("never enlarges a photo that already fits", () => {
    expect(fitWithin(1200, 900)).toEqual({ width: 1200, height: 900 });
    expect(fitWithin(MAX_SIDE, MAX_SIDE)).toEqual({ width: MAX_SIDE, height: MAX_SIDE });
  });

  it("knows a HEIC photo by its type or, when the browser gives none, by its name", () => {
    expect(isHeic({ name: "IMG_0001.HEIC", type: "" })).toBe(true);
    expect(isHeic({ name: "foto.heif", type: "" })).toBe(true);
    expect(isHeic({ name: "foto", type: "image/heic" })).toBe(true);
    expect(isHeic({ name: "foto.jpg", type: "image/jpeg" })).toBe(false);
    expect(isHeic({ name: "heic.png", type: "image/png" })).toBe(false);
  });

  it("names the converted file .jpg", () => {
    expect(jpegName("IMG_0001.HEIC")).toBe("IMG_0001.jpg");
    expect(jpegName("casa.na.praia.png")).toBe("casa.na.praia.jpg");
    expect(jpegName("sem-extensao")).toBe("sem-extensao.jpg");
  });
});
