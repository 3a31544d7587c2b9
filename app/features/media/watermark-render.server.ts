import type { Sharp } from "sharp";

/**
 * Burns a line of text into the bottom-right corner of one public size (issue 22, item 5): white
 * with a dark outline, so it reads on sky and on shadow, sized to the image's width and to the
 * text's length. The text is drawn by librsvg from an SVG with the system's sans-serif font; on a
 * machine without any font nothing would be drawn (the Dockerfile and CI images have DejaVu).
 */

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[character]!);

/** The overlay for an output of width × height: a band as wide as the image, at its foot. */
export function watermarkOverlay(width: number, height: number, text: string): Buffer {
  const fontSize = Math.max(9, Math.min(Math.round(width * 0.045), Math.floor((width * 0.9) / (text.length * 0.62))));
  const band = Math.min(height, Math.round(fontSize * 2));
  const margin = Math.round(fontSize * 0.6);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${band}">` +
    `<text x="${width - margin}" y="${band - margin}" text-anchor="end" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="700" ` +
    `font-size="${fontSize}" fill="#ffffff" fill-opacity="0.8" stroke="#000000" stroke-opacity="0.45" stroke-width="${Math.max(1, fontSize / 16)}" paint-order="stroke">` +
    `${escapeXml(text)}</text></svg>`;
  return Buffer.from(svg);
}

/** The image with the mark composited over its resized output, or as it is without a watermark. */
export function markPublicSize(image: Sharp, width: number, height: number, watermark: string | null | undefined): Sharp {
  if (!watermark) return image;
  return image.composite([{ input: watermarkOverlay(width, height, watermark), gravity: "southeast" }]);
}
