// @vitest-environment node
import crypto from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { detectImageType, ImageRejectedError, MAX_UPLOAD_BYTES, processImage } from "./pipeline.server";

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } });

describe("image pipeline", () => {
  it("recognises types by their bytes, not their name", async () => {
    expect(detectImageType(await photo(10, 10).jpeg().toBuffer())).toBe("jpeg");
    expect(detectImageType(await photo(10, 10).png().toBuffer())).toBe("png");
    expect(detectImageType(await photo(10, 10).webp().toBuffer())).toBe("webp");
    expect(detectImageType(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(detectImageType(Buffer.from("GIF89a..."))).toBeNull();
  });

  it("refuses what is not a photo, or too big, with a Portuguese reason", async () => {
    await expect(processImage(Buffer.from("%PDF-1.7 ..."))).rejects.toThrow(/formato não suportado/);
    const huge = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
    huge.set([0xff, 0xd8, 0xff]);
    await expect(processImage(huge)).rejects.toThrow(/maior que 5 MB/);
    await expect(processImage(Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]))).rejects.toBeInstanceOf(ImageRejectedError);
  });

  it("refuses absurd pixel counts before decoding them", async () => {
    // A small PNG that claims 9000×9000 pixels (81 MP) — a decompression bomb.
    const bomb = await sharp({ create: { width: 9000, height: 9000, channels: 3, background: "#000" } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(MAX_UPLOAD_BYTES);
    await expect(processImage(bomb)).rejects.toThrow(/grande demais/);
  });

  it("turns the photo upright and drops EXIF, GPS included", async () => {
    // 400×200 stored sideways with orientation 6 (a phone held upright) and a GPS position.
    const input = await photo(400, 200)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Make: "Phone" }, IFD3: { GPSLatitudeRef: "S", GPSLatitude: "5/1 47/1 0/1" } })
      .toBuffer();
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.exif).toBeDefined();
    expect(inputMeta.orientation).toBe(6);

    const result = await processImage(input);
    expect({ width: result.width, height: result.height }).toEqual({ width: 200, height: 400 });
    for (const file of result.files) {
      const meta = await sharp(file.body).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
    }
  });

  it("stores the widths pages use and a 1200×630 JPEG preview under 300 KB", async () => {
    // Noise compresses badly: the worst case for the preview's size.
    const noisy = await sharp(crypto.randomBytes(2400 * 1800 * 3), {
      raw: { width: 2400, height: 1800, channels: 3 },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    const result = await processImage(noisy.length > MAX_UPLOAD_BYTES ? await sharp(noisy).jpeg({ quality: 80 }).toBuffer() : noisy);
    const names = result.files.map((file) => file.name);
    // original.webp: the un-watermarked master (issue 22), kept but never served.
    expect(names).toEqual(["200.webp", "400.webp", "800.webp", "1600.webp", "og.jpg", "1600.jpg", "original.webp"]);
    const widths = await Promise.all(result.files.slice(0, 4).map(async (file) => (await sharp(file.body).metadata()).width));
    expect(widths).toEqual([200, 400, 800, 1600]);
    // The portals' JPEG (issue 13): the same 1600 px as the largest WebP, as a JPEG.
    const large = result.files.find((file) => file.name === "1600.jpg")!;
    const largeMeta = await sharp(large.body).metadata();
    expect([large.contentType, largeMeta.format, largeMeta.width, largeMeta.height]).toEqual(["image/jpeg", "jpeg", 1600, 1200]);
    expect(largeMeta.exif).toBeUndefined();
    const preview = result.files.find((file) => file.name === "og.jpg")!;
    const previewMeta = await sharp(preview.body).metadata();
    expect([previewMeta.format, previewMeta.width, previewMeta.height]).toEqual(["jpeg", 1200, 630]);
    expect(preview.body.length).toBeLessThan(300 * 1024);
    // Encoding every size of a 4-megapixel photo with one libvips thread takes seconds on a busy
    // 2-core machine: a limit for a hung encoder, not a timing.
  }, 60_000);

  it("never enlarges a small photo", async () => {
    const result = await processImage(await photo(300, 200).png().toBuffer());
    const big = result.files.find((file) => file.name === "1600.webp")!;
    expect((await sharp(big.body).metadata()).width).toBe(300);
    const largeJpeg = result.files.find((file) => file.name === "1600.jpg")!;
    expect((await sharp(largeJpeg.body).metadata()).width).toBe(300);
  });
});
