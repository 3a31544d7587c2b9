/**
 * The one rule from which every size of a photo follows (used by pages to build srcset without
 * another query, and by the server to know which files a photo has):
 *
 *   canonical URL (stored in properties.images):  /media/{id}/800.webp
 *   other widths:                                 /media/{id}/{w}.webp   for w in IMAGE_WIDTHS
 *   link-preview JPEG (1200×630, < 300 KB):       /media/{id}/og.jpg
 *
 * A width is the most a file can have: a smaller original is never enlarged.
 * URLs that do not follow the rule (an external image) are used as they are.
 */
export const IMAGE_WIDTHS = [200, 400, 800, 1600] as const;
export const CANONICAL_WIDTH = 800;
export const PREVIEW_FILE = "og.jpg";

export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

const MEDIA_URL = /^\/media\/([A-Za-z0-9-]{8,64})\/(\d+\.webp|og\.jpg)$/;
const MEDIA_ID = /^[A-Za-z0-9-]{8,64}$/;

export function isMediaId(id: string): boolean {
  return MEDIA_ID.test(id);
}

/** The files stored for one photo. */
export function mediaFileNames(): string[] {
  return [...IMAGE_WIDTHS.map((width) => `${width}.webp`), PREVIEW_FILE];
}

export function isMediaFileName(name: string): boolean {
  return mediaFileNames().includes(name);
}

export function canonicalMediaUrl(id: string): string {
  return `/media/${id}/${CANONICAL_WIDTH}.webp`;
}

/** The media id inside a canonical URL, or null for any other URL. */
export function mediaIdFromUrl(url: string): string | null {
  const match = MEDIA_URL.exec(url);
  return match ? match[1] : null;
}

export function mediaUrlForWidth(url: string, width: ImageWidth): string {
  const id = mediaIdFromUrl(url);
  return id ? `/media/${id}/${width}.webp` : url;
}

/** `srcset` for a stored photo, or undefined for an external URL. */
export function mediaSrcSet(url: string, widths: readonly ImageWidth[] = IMAGE_WIDTHS): string | undefined {
  const id = mediaIdFromUrl(url);
  if (!id) return undefined;
  return widths.map((width) => `/media/${id}/${width}.webp ${width}w`).join(", ");
}

/** The 1200×630 JPEG used for Open Graph previews (WhatsApp, Facebook), as a path. */
export function mediaPreviewUrl(url: string): string {
  const id = mediaIdFromUrl(url);
  return id ? `/media/${id}/${PREVIEW_FILE}` : url;
}
