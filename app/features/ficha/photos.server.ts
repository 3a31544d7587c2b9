import sharp from "sharp";
import type { MediaStorage } from "~/features/media/storage.server";
import { mediaIdFromUrl } from "~/features/media/urls";
import { errorFields, logger } from "~/lib/logger.server";
import { COVER_SIZE, type FichaPhotos, MAX_THUMBS, THUMB_SIZE } from "./ficha-pdf.server";

/**
 * The ficha's photos: the cover from its 800 px WebP and up to three more from their 400 px
 * WebP — the sizes the media pipeline already stored, never the originals (there are none: the
 * pipeline keeps re-encoded sizes only). pdfkit embeds JPEG and PNG only, so each is cropped to
 * its box's shape and re-encoded as JPEG here, with sharp's concurrency as the pipeline set it
 * (low, on 2 cores). A photo that cannot be read is left out: the ficha still comes.
 */

const log = logger("ficha");

async function jpegOf(storage: MediaStorage, url: string, file: string, box: { width: number; height: number }, width: number): Promise<Buffer | null> {
  const id = mediaIdFromUrl(url);
  if (!id) return null;
  try {
    const stored = await storage.get(`${id}/${file}`);
    if (!stored) return null;
    return await sharp(stored.body)
      .resize(width, Math.round((width * box.height) / box.width), { fit: "cover" })
      .jpeg({ quality: 78, mozjpeg: true })
      .toBuffer();
  } catch (error) {
    log.warn({ ...errorFields(error) }, "a photo was left out of a ficha");
    return null;
  }
}

export async function fichaPhotos(storage: MediaStorage, images: readonly string[]): Promise<FichaPhotos> {
  const [coverUrl, ...rest] = images;
  // One at a time: a ficha is no reason to take both cores from the pages.
  const cover = coverUrl ? await jpegOf(storage, coverUrl, "800.webp", COVER_SIZE, 800) : null;
  const thumbs: Buffer[] = [];
  for (const url of rest.slice(0, MAX_THUMBS)) {
    const thumb = await jpegOf(storage, url, "400.webp", THUMB_SIZE, 400);
    if (thumb) thumbs.push(thumb);
  }
  return { cover, thumbs };
}
