import sharp from "sharp";

/**
 * Demo photos we own: simple scenes drawn as SVG and rasterised by sharp into camera-sized JPEGs,
 * which then go through the same pipeline as the broker's uploads. No stock photos to license.
 */

export type SceneKind =
  | "house"
  | "building"
  | "beach"
  | "living"
  | "kitchen"
  | "bedroom"
  | "land"
  | "shop"
  | "pool";

type Palette = { wall: string; roof: string; accent: string; sky: string; ground: string };

const PALETTES: Palette[] = [
  { wall: "#f4e3c1", roof: "#b5542d", accent: "#2f6f8f", sky: "#8ec9ea", ground: "#6ea35a" },
  { wall: "#ffffff", roof: "#5b6770", accent: "#d9822b", sky: "#a3d5f2", ground: "#7db36a" },
  { wall: "#e9d7c6", roof: "#8a3b22", accent: "#3f7d5a", sky: "#9bd0ef", ground: "#88b04b" },
  { wall: "#dfe8ee", roof: "#34495e", accent: "#c0392b", sky: "#87c3e6", ground: "#6c9a4f" },
  { wall: "#f7efe2", roof: "#a0522d", accent: "#1f7a8c", sky: "#b0dcf5", ground: "#79a861" },
];

const W = 1600;
const H = 1200;

function skyAndSun(p: Palette) {
  return `
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${p.sky}"/><stop offset="1" stop-color="#eaf6fd"/>
    </linearGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="url(#sky)"/>
  <circle cx="1330" cy="200" r="90" fill="#ffd66b" opacity="0.9"/>
  <ellipse cx="300" cy="190" rx="140" ry="38" fill="#ffffff" opacity="0.8"/>
  <ellipse cx="390" cy="170" rx="90" ry="32" fill="#ffffff" opacity="0.8"/>`;
}

function palm(x: number, y: number, scale = 1) {
  const s = (value: number) => value * scale;
  return `
  <g transform="translate(${x} ${y})">
    <path d="M0 0 C ${s(-10)} ${s(-160)} ${s(20)} ${s(-300)} ${s(10)} ${s(-420)}" stroke="#7a5230" stroke-width="${s(22)}" fill="none"/>
    ${[-150, -100, -40, 20, 80, 140]
      .map(
        (angle) =>
          `<path d="M${s(10)} ${s(-420)} q ${s(80)} ${s(-40)} ${s(170)} ${s(30)}" transform="rotate(${angle} ${s(10)} ${s(-420)})" stroke="#2e7d32" stroke-width="${s(26)}" fill="none" stroke-linecap="round"/>`,
      )
      .join("")}
  </g>`;
}

function window(x: number, y: number, w: number, h: number, frame = "#ffffff") {
  return `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#9fd3f0" stroke="${frame}" stroke-width="10"/>
  <line x1="${x + w / 2}" y1="${y}" x2="${x + w / 2}" y2="${y + h}" stroke="${frame}" stroke-width="6"/>`;
}

const scenes: Record<SceneKind, (p: Palette) => string> = {
  house: (p) => `${skyAndSun(p)}
    <rect y="860" width="${W}" height="340" fill="${p.ground}"/>
    <rect x="420" y="520" width="760" height="400" fill="${p.wall}"/>
    <polygon points="370,540 800,280 1230,540" fill="${p.roof}"/>
    <rect x="730" y="700" width="140" height="220" fill="${p.accent}"/>
    <circle cx="850" cy="815" r="8" fill="#f1c40f"/>
    ${window(490, 620, 170, 130)}${window(940, 620, 170, 130)}
    <rect x="0" y="900" width="${W}" height="20" fill="#ffffff" opacity="0.7"/>
    ${palm(250, 930, 1)}${palm(1400, 950, 0.8)}
    <rect x="640" y="920" width="320" height="280" fill="#c9b79c"/>`,
  building: (p) => `${skyAndSun(p)}
    <rect y="1000" width="${W}" height="200" fill="${p.ground}"/>
    <rect x="520" y="160" width="560" height="880" fill="${p.wall}" stroke="#c8c8c8" stroke-width="4"/>
    ${Array.from({ length: 9 }, (_, row) =>
      Array.from({ length: 4 }, (_, col) =>
        `<rect x="${560 + col * 130}" y="${200 + row * 92}" width="90" height="60" fill="#8fc6e6" stroke="${p.accent}" stroke-width="5"/>`,
      ).join(""),
    ).join("")}
    <rect x="740" y="930" width="120" height="110" fill="${p.accent}"/>
    <rect x="160" y="560" width="280" height="480" fill="#d7dde2"/>
    <rect x="1160" y="480" width="300" height="560" fill="#cfd8dc"/>
    ${palm(470, 1060, 0.7)}${palm(1120, 1060, 0.7)}`,
  beach: (p) => `${skyAndSun(p)}
    <path d="M0 560 Q 300 380 620 560 L 620 700 L 0 700 Z" fill="#d9b77e"/>
    <path d="M260 520 Q 420 330 640 560 Z" fill="#caa064"/>
    <rect y="600" width="${W}" height="260" fill="#2a8fbd"/>
    <path d="M0 640 Q 200 620 400 640 T 800 640 T 1200 640 T 1600 640" stroke="#ffffff" stroke-width="6" fill="none" opacity="0.6"/>
    <path d="M0 860 Q 400 800 800 860 T 1600 850 L 1600 1200 L 0 1200 Z" fill="#f1dcab"/>
    <path d="M0 850 Q 400 790 800 850 T 1600 840" stroke="#ffffff" stroke-width="14" fill="none" opacity="0.8"/>
    ${palm(1300, 1080, 1.1)}
    <circle cx="420" cy="1010" r="70" fill="${p.accent}"/>
    <rect x="414" y="1010" width="12" height="150" fill="#6d4c41"/>`,
  living: (p) => `
    <rect width="${W}" height="${H}" fill="${p.wall}"/>
    <rect y="880" width="${W}" height="320" fill="#b98b5e"/>
    ${Array.from({ length: 8 }, (_, index) => `<line x1="${index * 220}" y1="880" x2="${index * 220 - 120}" y2="1200" stroke="#a27449" stroke-width="4"/>`).join("")}
    <rect x="980" y="220" width="460" height="420" fill="#a8dcf5" stroke="#ffffff" stroke-width="18"/>
    <rect x="1000" y="480" width="420" height="140" fill="#2a8fbd" opacity="0.7"/>
    <rect x="220" y="640" width="640" height="220" rx="30" fill="${p.accent}"/>
    <rect x="200" y="560" width="680" height="150" rx="40" fill="${p.accent}" opacity="0.85"/>
    <rect x="260" y="600" width="180" height="110" rx="20" fill="#f5f5f5" opacity="0.8"/>
    <rect x="640" y="600" width="180" height="110" rx="20" fill="#f5f5f5" opacity="0.8"/>
    <rect x="380" y="930" width="400" height="40" rx="10" fill="#5d4037"/>
    <rect x="1120" y="700" width="30" height="200" fill="#5d4037"/>
    <ellipse cx="1135" cy="690" rx="90" ry="60" fill="#2e7d32"/>
    <rect x="120" y="200" width="260" height="180" fill="${p.roof}" opacity="0.8"/>`,
  kitchen: (p) => `
    <rect width="${W}" height="${H}" fill="#f6f3ee"/>
    <rect y="960" width="${W}" height="240" fill="#d6cfc4"/>
    <rect x="0" y="160" width="${W}" height="260" fill="${p.accent}"/>
    ${Array.from({ length: 6 }, (_, index) => `<line x1="${index * 270 + 260}" y1="160" x2="${index * 270 + 260}" y2="420" stroke="#ffffff" stroke-width="6" opacity="0.6"/>`).join("")}
    <rect x="0" y="640" width="${W}" height="40" fill="#37474f"/>
    <rect x="0" y="680" width="${W}" height="290" fill="${p.accent}"/>
    ${Array.from({ length: 6 }, (_, index) => `<rect x="${index * 270 + 20}" y="700" width="230" height="250" fill="none" stroke="#ffffff" stroke-width="5" opacity="0.6"/>`).join("")}
    ${window(620, 440, 360, 190)}
    <circle cx="300" cy="600" r="40" fill="${p.roof}"/><rect x="1180" y="560" width="120" height="80" fill="#90a4ae"/>`,
  bedroom: (p) => `
    <rect width="${W}" height="${H}" fill="${p.wall}"/>
    <rect y="900" width="${W}" height="300" fill="#c7a27c"/>
    <rect x="460" y="420" width="680" height="260" rx="20" fill="${p.roof}"/>
    <rect x="400" y="660" width="800" height="260" rx="20" fill="#ffffff"/>
    <rect x="400" y="760" width="800" height="160" rx="10" fill="${p.accent}"/>
    <rect x="500" y="600" width="250" height="100" rx="30" fill="#eeeeee"/>
    <rect x="850" y="600" width="250" height="100" rx="30" fill="#eeeeee"/>
    <rect x="230" y="720" width="140" height="180" fill="#8d6e63"/><circle cx="300" cy="690" r="40" fill="#ffe082"/>
    ${window(1260, 260, 240, 300)}
    <rect x="1230" y="240" width="40" height="360" fill="${p.accent}" opacity="0.7"/><rect x="1490" y="240" width="40" height="360" fill="${p.accent}" opacity="0.7"/>`,
  land: (p) => `${skyAndSun(p)}
    <rect y="620" width="${W}" height="580" fill="${p.ground}"/>
    <path d="M0 620 Q 400 560 800 610 T 1600 600 L 1600 640 L 0 640 Z" fill="#5b8c45"/>
    ${Array.from({ length: 17 }, (_, index) => `<rect x="${index * 100}" y="760" width="12" height="140" fill="#8d6e63"/>`).join("")}
    <rect x="0" y="790" width="${W}" height="8" fill="#8d6e63"/><rect x="0" y="850" width="${W}" height="8" fill="#8d6e63"/>
    ${palm(1250, 700, 0.7)}${palm(200, 690, 0.6)}
    <rect x="700" y="640" width="16" height="180" fill="#6d4c41"/><rect x="620" y="600" width="180" height="90" fill="${p.accent}"/>`,
  shop: (p) => `${skyAndSun(p)}
    <rect y="1000" width="${W}" height="200" fill="#9e9e9e"/>
    <rect x="240" y="300" width="1120" height="720" fill="${p.wall}"/>
    <rect x="240" y="300" width="1120" height="120" fill="${p.roof}"/>
    ${Array.from({ length: 10 }, (_, index) => `<path d="M${240 + index * 112} 520 l 56 -100 l 56 100 Z" fill="${index % 2 ? "#ffffff" : p.accent}"/>`).join("")}
    <rect x="300" y="560" width="640" height="440" fill="#b3e0f5" stroke="#37474f" stroke-width="12"/>
    <rect x="1000" y="560" width="300" height="440" fill="#90caf9" stroke="#37474f" stroke-width="12"/>
    <line x1="620" y1="560" x2="620" y2="1000" stroke="#37474f" stroke-width="8"/>`,
  pool: (p) => `${skyAndSun(p)}
    <rect y="640" width="${W}" height="560" fill="#e8dcc8"/>
    <rect x="200" y="760" width="1200" height="340" rx="30" fill="#33b5e5"/>
    <path d="M240 860 Q 440 830 640 860 T 1040 860 T 1360 860" stroke="#ffffff" stroke-width="6" fill="none" opacity="0.6"/>
    <rect x="300" y="420" width="1000" height="240" fill="${p.wall}"/>
    ${window(360, 470, 200, 150)}${window(700, 470, 200, 150)}${window(1040, 470, 200, 150)}
    <polygon points="260,430 800,300 1340,430" fill="${p.roof}"/>
    ${palm(120, 760, 0.8)}${palm(1500, 780, 0.9)}
    <rect x="560" y="680" width="160" height="36" rx="12" fill="${p.accent}"/><rect x="860" y="680" width="160" height="36" rx="12" fill="${p.accent}"/>`,
};

/** One demo photo as a JPEG, like a phone would upload. */
export async function renderDemoPhoto(kind: SceneKind, paletteIndex: number): Promise<Buffer> {
  const palette = PALETTES[paletteIndex % PALETTES.length];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${scenes[kind](palette)}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}
