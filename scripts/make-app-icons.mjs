// Draws the installable CRM's icons (committed in public/icons/, listed by
// public/crm/manifest.webmanifest; decision 029) from the favicon's drawing: the house on the
// brand colour. Run again after changing the drawing: node scripts/make-app-icons.mjs
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BRAND = "#0b5f7a";
const HOUSE = `<path d="M7 15.5 16 8l9 7.5V25a1 1 0 0 1-1 1h-5.5v-6h-5v6H8a1 1 0 0 1-1-1z" fill="#fff"/><path d="M16 8l9 7.5" stroke="#e9a23b" stroke-width="2" fill="none" stroke-linecap="round"/>`;

// 'any': the favicon's rounded square, as launchers show it without a mask.
const anyIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${BRAND}"/>${HOUSE}</svg>`;
// 'maskable': full bleed, the house inside the central circle of 80% (the safe zone a launcher's
// mask never cuts), the house drawn at 85% of its favicon size.
const maskableIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/><g transform="translate(16 16.5) scale(0.85) translate(-16 -17)">${HOUSE}</g></svg>`;

const SIZES = [144, 192, 256, 384, 512];
const render = (svg, size, file) =>
  sharp(Buffer.from(svg), { density: 72 * (size / 32) }).resize(size, size).png({ compressionLevel: 9, palette: true }).toFile(path.join(root, "public/icons", file));

for (const size of SIZES) await render(anyIcon, size, `app-${size}.png`);
for (const size of [192, 512]) await render(maskableIcon, size, `app-maskable-${size}.png`);
console.log(`public/icons/: app-{${SIZES.join(",")}}.png and app-maskable-{192,512}.png written`);
