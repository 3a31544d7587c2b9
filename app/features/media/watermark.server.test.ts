// @vitest-environment node
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { processImage } from "./pipeline.server";
import { MASTER_FILE } from "./urls";
import { parseWatermark, WATERMARK_MESSAGES } from "./watermark";

/** A flat mid-grey photo: any mark shows up as a change of pixels. */
const photo = () => sharp({ create: { width: 1600, height: 1000, channels: 3, background: { r: 90, g: 110, b: 130 } } }).jpeg({ quality: 95 }).toBuffer();

/** Mean absolute difference per channel over a region of two same-size images. */
async function difference(a: Buffer, b: Buffer, region: { left: number; top: number; width: number; height: number }) {
  const [x, y] = await Promise.all([a, b].map((body) => sharp(body).extract(region).removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let index = 0; index < x.length; index++) sum += Math.abs(x[index] - y[index]);
  return sum / x.length;
}

const fileOf = (files: { name: string; body: Buffer }[], name: string) => files.find((file) => file.name === name)!.body;

describe("watermark", () => {
  it("burns the text into every public size's corner, and never into the master", async () => {
    const input = await photo();
    const plain = await processImage(input);
    const marked = await processImage(input, { watermark: "Maria Corretora CRECI 1234" });

    // The master (the stored original) is byte-identical with and without the watermark.
    expect(fileOf(marked.files, MASTER_FILE).equals(fileOf(plain.files, MASTER_FILE))).toBe(true);

    for (const [name, width, height] of [["800.webp", 800, 500], ["1600.webp", 1600, 1000], ["1600.jpg", 1600, 1000], ["og.jpg", 1200, 630]] as const) {
      const a = fileOf(plain.files, name);
      const b = fileOf(marked.files, name);
      expect(a.equals(b), name).toBe(false);
      // Bottom-right corner: the mark is there (white text with an outline on grey).
      const corner = { left: Math.round(width * 0.45), top: Math.round(height * 0.85), width: Math.round(width * 0.5), height: Math.round(height * 0.12) };
      expect(await difference(a, b, corner), name).toBeGreaterThan(5);
      // Top-left quarter: untouched (only the encoder's noise).
      expect(await difference(a, b, { left: 0, top: 0, width: width / 2, height: height / 2 }), name).toBeLessThan(1);
    }
    // Two full renders with one libvips thread: seconds on a busy 2-core machine.
  }, 60_000);

  it("reads the setting with limits and Portuguese messages", () => {
    expect(parseWatermark({ enabled: "on", text: "  Ana   Souza " })).toEqual({ ok: true, value: { enabled: true, text: "Ana Souza" } });
    expect(parseWatermark({})).toEqual({ ok: true, value: { enabled: false, text: "" } });
    expect(parseWatermark({ enabled: "on", text: "x".repeat(61) })).toEqual({ ok: false, message: WATERMARK_MESSAGES.textLong });
    expect(parseWatermark({ enabled: "on", text: "Ana\u0000" })).toEqual({ ok: false, message: WATERMARK_MESSAGES.textInvalid });
    expect(parseWatermark({ enabled: "on", text: 42 })).toEqual({ ok: false, message: WATERMARK_MESSAGES.textInvalid });
  });
});
