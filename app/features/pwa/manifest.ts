/**
 * The installable CRM (decision 029): what the manifest says, and where the worker lives. The
 * icons are drawn by scripts/make-app-icons.mjs into public/icons/.
 */
export const MANIFEST_URL = "/crm/manifest.webmanifest";
export const SERVICE_WORKER_URL = "/crm/sw.js";
// "/crm", not "/crm/": the dashboard itself (/crm, and its /crm.data) must be inside. A script at
// /crm/sw.js may claim no wider than /crm/ unless it is served with Service-Worker-Allowed: /crm.
export const SERVICE_WORKER_SCOPE = "/crm";
export const THEME_COLOR = "#0b5f7a";

const ANY_SIZES = [144, 192, 256, 384, 512];
const MASKABLE_SIZES = [192, 512];

export function appManifest(siteName: string) {
  return {
    id: "/crm",
    name: `CRM ${siteName}`.slice(0, 60),
    short_name: "CRM",
    description: "Leads, imóveis e visitas do corretor.",
    lang: "pt-BR",
    dir: "ltr",
    start_url: "/crm",
    scope: "/crm",
    display: "standalone",
    orientation: "any",
    theme_color: THEME_COLOR,
    background_color: "#f1f5f9",
    icons: [
      ...ANY_SIZES.map((size) => ({ src: `/icons/app-${size}.png`, sizes: `${size}x${size}`, type: "image/png", purpose: "any" })),
      ...MASKABLE_SIZES.map((size) => ({ src: `/icons/app-maskable-${size}.png`, sizes: `${size}x${size}`, type: "image/png", purpose: "maskable" })),
    ],
  };
}
