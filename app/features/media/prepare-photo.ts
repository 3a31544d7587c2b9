/**
 * Photos straight from a phone camera (4–12 MB, often 4000 px or more, HEIC on iPhones) made
 * ready in the browser before they are sent: the server keeps its 5 MB limit and never serves
 * more than 2000 px, so a larger photo is shrunk here — less to send over 4G, nothing lost — and
 * a HEIC photo becomes a JPEG where the browser can decode it (Safari can, Chrome cannot).
 */

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** The largest side the server keeps (media/pipeline.server.ts resizes to 2000 px). */
export const MAX_SIDE = 2000;
/** Below this a photo goes as it is: not worth decoding. */
const SMALL_BYTES = 1024 * 1024;

/** What the file inputs offer; HEIC by extension too, since browsers often give it no type. */
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif";

export const PHOTO_MESSAGES = {
  tooLarge: (name: string) => `${name} tem mais de 5 MB`,
  heicUnsupported: (name: string) =>
    `${name}: este navegador não abre fotos HEIC. Envie em JPEG ou, no iPhone, escolha Ajustes > Câmera > Formatos > "Mais Compatível".`,
} as const;

export function isHeic(file: { name: string; type: string }): boolean {
  return /^image\/hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name);
}

/** The size that fits within maxSide on its longest side, keeping the proportions (never larger). */
export function fitWithin(width: number, height: number, maxSide = MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** "IMG_1234.HEIC" → "IMG_1234.jpg" */
export function jpegName(name: string): string {
  return `${name.replace(/\.[^./\\]+$/, "") || "foto"}.jpg`;
}

export type PreparedPhoto = { ok: true; file: File } | { ok: false; message: string };

async function encodeJpeg(bitmap: ImageBitmap, maxSide: number, quality: number): Promise<Blob | null> {
  const size = fitWithin(bitmap.width, bitmap.height, maxSide);
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d");
  if (!context) return null;
  // A transparent PNG would turn black in a JPEG: white behind it, like the site's cards.
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}

/** Ready to send: as it is when already fit, else shrunk (and HEIC turned into JPEG); or why not. */
export async function preparePhoto(file: File): Promise<PreparedPhoto> {
  const heic = isHeic(file);
  if (!heic && file.size <= SMALL_BYTES) return { ok: true, file };
  let bitmap: ImageBitmap | undefined;
  try {
    bitmap = typeof createImageBitmap === "function" ? await createImageBitmap(file, { imageOrientation: "from-image" }) : undefined;
  } catch {
    bitmap = undefined;
  }
  if (!bitmap) {
    // Not decodable here: HEIC cannot go (the server takes JPEG, PNG and WebP); anything else
    // goes as it is when the server can take it, and the server judges it.
    if (heic) return { ok: false, message: PHOTO_MESSAGES.heicUnsupported(file.name) };
    return file.size <= MAX_UPLOAD_BYTES ? { ok: true, file } : { ok: false, message: PHOTO_MESSAGES.tooLarge(file.name) };
  }
  try {
    if (!heic && file.size <= MAX_UPLOAD_BYTES && Math.max(bitmap.width, bitmap.height) <= MAX_SIDE) return { ok: true, file };
    // A few tries, each smaller, so even a huge noisy photo ends under the limit.
    for (const [side, quality] of [
      [MAX_SIDE, 0.85],
      [MAX_SIDE, 0.7],
      [1600, 0.7],
    ] as const) {
      const blob = await encodeJpeg(bitmap, side, quality);
      if (blob && blob.size <= MAX_UPLOAD_BYTES) return { ok: true, file: new File([blob], jpegName(file.name), { type: "image/jpeg" }) };
    }
    return { ok: false, message: PHOTO_MESSAGES.tooLarge(file.name) };
  } finally {
    bitmap.close();
  }
}
