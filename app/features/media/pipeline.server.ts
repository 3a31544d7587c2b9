import crypto from "node:crypto";
import sharp, { type Metadata, type Sharp } from "sharp";
import type { Database } from "~/db/client.server";
import { media } from "~/db/schema";
import type { MediaStorage } from "./storage.server";
import { IMAGE_WIDTHS, LARGE_JPEG_FILE, MASTER_FILE, PREVIEW_FILE, canonicalMediaUrl } from "./urls";
import { markPublicSize } from "./watermark-render.server";

/**
 * One pipeline for every photo, demo seed and CRM upload alike: check what the bytes really are,
 * honour the camera's orientation, re-encode (which drops EXIF and GPS) into the sizes pages use,
 * and store them. See urls.ts for the naming rule.
 */

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** About 40 megapixels: more than any phone camera, far less than a decompression bomb. */
export const MAX_INPUT_PIXELS = 40_000_000;
const PREVIEW_MAX_BYTES = 300 * 1024;

// Two cores: one libvips thread per operation and at most two photos at a time keep the site
// responsive while the broker uploads.
sharp.concurrency(1);
sharp.cache(false);
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export class ImageRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageRejectedError";
  }
}

export type DetectedType = "jpeg" | "png" | "webp";

/** The real type from the first bytes; the file name and the browser's claim are not trusted. */
export function detectImageType(bytes: Uint8Array): DetectedType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((value, index) => bytes[index] === value)) return "png";
  const ascii = (start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

export type ProcessedImage = {
  width: number;
  height: number;
  files: { name: string; body: Buffer; contentType: string }[];
};

/** What to burn into the public sizes (issue 22): a line of text, or nothing. */
export type RenderOptions = { watermark?: string | null };

/**
 * Validates and re-encodes one image. Throws ImageRejectedError with a Portuguese reason. Besides
 * the public sizes it keeps an un-watermarked master (MASTER_FILE, never served), from which the
 * public sizes are made again when the watermark changes.
 */
export async function processImage(bytes: Buffer, options: RenderOptions = {}): Promise<ProcessedImage> {
  if (bytes.length === 0) throw new ImageRejectedError("arquivo vazio");
  if (bytes.length > MAX_UPLOAD_BYTES) throw new ImageRejectedError("arquivo maior que 5 MB");
  if (!detectImageType(bytes)) {
    throw new ImageRejectedError("formato não suportado (use JPG, PNG ou WebP)");
  }
  return withSlot(async () => {
    let meta: Metadata;
    try {
      meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    } catch {
      throw new ImageRejectedError("imagem corrompida ou ilegível");
    }
    if (!meta.width || !meta.height) throw new ImageRejectedError("imagem sem dimensões");
    if (meta.width * meta.height > MAX_INPUT_PIXELS) {
      throw new ImageRejectedError("imagem grande demais (máximo de 40 megapixels)");
    }
    try {
      // Decode once, upright: .rotate() applies the EXIF orientation, and re-encoding without
      // .withMetadata() leaves EXIF (GPS included) behind.
      const upright = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
        .rotate()
        // Nothing larger than 2000 px is ever served; shrinking first keeps memory low.
        .resize({ width: 2000, height: 2000, fit: "inside", withoutEnlargement: true })
        .toColourspace("srgb")
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { width, height, channels } = upright.info;
      const source = () => sharp(upright.data, { raw: { width, height, channels } });
      const files = await publicSizes(source, width, height, options);
      files.push({ name: MASTER_FILE, body: await source().webp({ quality: 90, effort: 4 }).toBuffer(), contentType: "image/webp" });
      return { width, height, files };
    } catch (error) {
      if (error instanceof ImageRejectedError) throw error;
      throw new ImageRejectedError("não foi possível processar a imagem");
    }
  });
}

/** Every file a page, a preview or the portals' feed may fetch, each with the watermark if any. */
async function publicSizes(source: () => Sharp, width: number, height: number, options: RenderOptions): Promise<ProcessedImage["files"]> {
  const mark = (image: Sharp, outWidth: number, outHeight: number) => markPublicSize(image, outWidth, outHeight, options.watermark);
  const heightAt = (outWidth: number) => Math.max(1, Math.round((height * outWidth) / width));
  const files: ProcessedImage["files"] = [];
  for (const target of IMAGE_WIDTHS) {
    const outWidth = Math.min(target, width);
    const body = await mark(source().resize({ width: target, withoutEnlargement: true }), outWidth, heightAt(outWidth))
      .webp({ quality: target <= 400 ? 72 : 78, effort: 4 })
      .toBuffer();
    files.push({ name: `${target}.webp`, body, contentType: "image/webp" });
  }
  files.push({ name: PREVIEW_FILE, body: await previewJpeg(source, options), contentType: "image/jpeg" });
  const largeWidth = Math.min(1600, width);
  files.push({ name: LARGE_JPEG_FILE, body: await largeJpeg(mark(source(), largeWidth, heightAt(largeWidth))), contentType: "image/jpeg" });
  return files;
}

/**
 * The public sizes made again from a stored master (the watermark changed). Waits for a free slot
 * like an upload.
 */
export function publicSizesFromMaster(master: Buffer, options: RenderOptions): Promise<ProcessedImage["files"]> {
  return withSlot(async () => {
    const { data, info } = await sharp(master, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }).raw().toBuffer({ resolveWithObject: true });
    const source = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    return publicSizes(source, info.width, info.height, options);
  });
}

/** 1200×630 for link previews; WhatsApp skips images over ~300 KB, so lower the quality until it fits. */
async function previewJpeg(source: () => Sharp, options: RenderOptions): Promise<Buffer> {
  for (const quality of [82, 72, 62, 50, 40]) {
    // sharp composites over the resized image: the mark sits in the preview's corner.
    const body = await markPublicSize(source().resize({ width: 1200, height: 630, fit: "cover", position: "attention" }), 1200, 630, options.watermark)
      .flatten({ background: "#ffffff" })
      .jpeg({ quality, mozjpeg: true })
      .toBuffer();
    if (body.length < PREVIEW_MAX_BYTES) return body;
  }
  throw new ImageRejectedError("não foi possível gerar a prévia da imagem");
}

/**
 * The portals' photo (issue 13): their feed takes JPEG only. 1600 px wide at most, like the
 * largest WebP; quality 80 keeps a typical photo around 200–400 KB.
 */
function largeJpeg(image: Sharp): Promise<Buffer> {
  return image
    .resize({ width: 1600, withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}

/**
 * The large JPEG of a photo stored before the pipeline made one, from its 1600.webp (the largest
 * file we keep; the original is not stored). Waits for a free slot like an upload.
 */
export function largeJpegFromStored(webp: Buffer): Promise<Buffer> {
  return withSlot(() => largeJpeg(sharp(webp, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })));
}

/**
 * Processes and stores a photo; returns its canonical URL. The files are written before the
 * database row, and nothing here runs inside a transaction (the embedded database has one
 * connection: never hold it while sharp works).
 */
export async function storeImage(
  deps: { db: Database; storage: MediaStorage },
  bytes: Buffer,
  options: RenderOptions = {},
): Promise<{ id: string; url: string; width: number; height: number }> {
  const processed = await processImage(bytes, options);
  const id = crypto.randomUUID();
  const written: string[] = [];
  try {
    for (const file of processed.files) {
      const key = `${id}/${file.name}`;
      await deps.storage.put(key, file.body, file.contentType);
      written.push(key);
    }
    await deps.db.insert(media).values({
      id,
      width: processed.width,
      height: processed.height,
      bytes: processed.files.reduce((sum, file) => sum + file.body.length, 0),
    });
  } catch (error) {
    await deps.storage.delete(written).catch(() => {});
    throw error;
  }
  return { id, url: canonicalMediaUrl(id), width: processed.width, height: processed.height };
}
