/**
 * The one rule from which every size of a photo follows (used by pages to build srcset without
 * another query, and by the server to know which files a photo has):
 *
 *   canonical URL (stored in properties.images):  /media/{id}/800.webp
 *   other widths:                                 /media/{id}/{w}.webp   for w in IMAGE_WIDTHS
 *   link-preview JPEG (1200×630, < 300 KB):       /media/{id}/og.jpg
 *   large JPEG (at most 1600 px wide):            /media/{id}/1600.jpg   for the portals' feed,
 *                                                 which takes JPEG only (issue 13)
 *
 * A width is the most a file can have: a smaller original is never enlarged.
 * URLs that do not follow the rule (an external image) are used as they are.
 */
export const IMAGE_WIDTHS = [200, 400, 800, 1600] as const;
export const CANONICAL_WIDTH = 800;
export const PREVIEW_FILE = "og.jpg";
export const LARGE_JPEG_FILE = "1600.jpg";
/**
 * The un-watermarked master of a photo (issue 22): at most 2000 px, kept so the public sizes can
 * be made again when the watermark changes. Never served (not in mediaFileNames); deleted with the
 * photo. Photos stored before it existed have none.
 */
export const MASTER_FILE = "original.webp";

export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

const MEDIA_URL = /^\/media\/([A-Za-z0-9-]{8,64})\/(\d+\.webp|og\.jpg|1600\.jpg)$/;

export const isMediaId = (id: string) => /^[A-Za-z0-9-]{8,64}$/.test(id);

/** The files stored for one photo. */
export const mediaFileNames = () => [...IMAGE_WIDTHS.map((width) => `${width}.webp`), PREVIEW_FILE, LARGE_JPEG_FILE];

export const isMediaFileName = (name: string) => mediaFileNames().includes(name);

/** Every file stored for one photo, the master included (for deletion and backups). */
export const storedFileNames = () => [...mediaFileNames(), MASTER_FILE];

export const canonicalMediaUrl = (id: string) => `/media/${id}/${CANONICAL_WIDTH}.webp`;

const CANONICAL_URL = /^\/media\/[A-Za-z0-9-]{8,64}\/800\.webp$/;

/**
 * Whether a listing may show this URL: only our own uploads, by their canonical URL. Anything
 * else (another site's image, a malformed address such as "http://[") is refused when saved and
 * skipped when shown.
 */
export const isCanonicalMediaUrl = (url: unknown): url is string => typeof url === "string" && CANONICAL_URL.test(url);

/** The photos of a listing that may be shown (a row saved before the check could hold others). */
export const showableImages = (images: readonly string[]) => images.filter(isCanonicalMediaUrl);

/** The media id inside a canonical URL, or null for any other URL. */
export const mediaIdFromUrl = (url: string) => MEDIA_URL.exec(url)?.[1] ?? null;

/** Another file of the same photo (a width, or the preview), or the URL itself if it is not ours. */
function sibling(url: string, file: string): string {
  const id = mediaIdFromUrl(url);
  return id ? `/media/${id}/${file}` : url;
}

export const mediaUrlForWidth = (url: string, width: ImageWidth) => sibling(url, `${width}.webp`);

/** The 1200×630 JPEG used for Open Graph previews (WhatsApp, Facebook), as a path. */
export const mediaPreviewUrl = (url: string) => sibling(url, PREVIEW_FILE);

/** The large JPEG the portals' feed lists, as a path. */
export const mediaLargeJpegUrl = (url: string) => sibling(url, LARGE_JPEG_FILE);

/** `srcset` for a stored photo, or undefined for an external URL. */
export function mediaSrcSet(url: string, widths: readonly ImageWidth[] = IMAGE_WIDTHS): string | undefined {
  return mediaIdFromUrl(url) ? widths.map((width) => `${mediaUrlForWidth(url, width)} ${width}w`).join(", ") : undefined;
}
