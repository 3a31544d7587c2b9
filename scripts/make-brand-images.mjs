// Draws the site's static images (committed in public/): the default link-preview image and the
// home-screen icon. Run again after changing the drawing: node scripts/make-brand-images.mjs
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// No text: the broker's name is configuration, the picture must suit any broker.
const preview = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b2530"/><stop offset="1" stop-color="#0b5f7a"/></linearGradient></defs>
  <rect width="1200" height="630" fill="url(#g)"/>
  <circle cx="980" cy="150" r="70" fill="#e9a23b"/>
  <path d="M0 470 Q 300 420 600 470 T 1200 460 L1200 630 L0 630Z" fill="#0e7490" opacity="0.6"/>
  <path d="M0 520 Q 300 480 600 520 T 1200 515 L1200 630 L0 630Z" fill="#f1dcab"/>
  <g transform="translate(420 170)">
    <rect x="40" y="150" width="280" height="200" fill="#ffffff"/>
    <polygon points="0,165 180,40 360,165" fill="#e9a23b"/>
    <rect x="150" y="250" width="60" height="100" fill="#0b5f7a"/>
    <rect x="70" y="200" width="60" height="50" fill="#9fd3f0"/><rect x="230" y="200" width="60" height="50" fill="#9fd3f0"/>
  </g>
  <g transform="translate(180 520)"><path d="M0 0 C -5 -80 10 -150 5 -210" stroke="#7a5230" stroke-width="12" fill="none"/>
    <path d="M5 -210 q 40 -20 85 15 M5 -210 q -40 -20 -85 15 M5 -210 q 10 -45 60 -50 M5 -210 q -10 -45 -60 -50" stroke="#2e7d32" stroke-width="14" fill="none" stroke-linecap="round"/></g>
</svg>`;

const icon = `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="180" viewBox="0 0 32 32"><rect width="32" height="32" fill="#0b5f7a"/><path d="M7 15.5 16 8l9 7.5V25a1 1 0 0 1-1 1h-5.5v-6h-5v6H8a1 1 0 0 1-1-1z" fill="#fff"/></svg>`;

await sharp(Buffer.from(preview)).jpeg({ quality: 82, mozjpeg: true }).toFile(path.join(root, "public/og-default.jpg"));
await sharp(Buffer.from(icon)).png().toFile(path.join(root, "public/apple-touch-icon.png"));
console.log("public/og-default.jpg and public/apple-touch-icon.png written");
