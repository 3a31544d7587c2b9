/**
 * A listing's video and 360° tour links (issue 22): which hosts are accepted and how a link is
 * read. The same rules validate the CRM form (browser and server) and will drive the public page's
 * click-to-load embeds and its CSP, so a host is added here or nowhere.
 *
 * Why an allow-list: the page will put these addresses in an iframe, and the portals' feed will
 * hand them on. A link to any other site is refused with a message that names the accepted ones.
 */

export const LINK_MAX_LENGTH = 500;

/** Video: YouTube and Vimeo, the two the portals' feed (`<Item medium="video">`) and brokers use. */
export const VIDEO_HOSTS = {
  youtube: ["youtube.com", "www.youtube.com", "m.youtube.com", "youtu.be"],
  vimeo: ["vimeo.com", "www.vimeo.com", "player.vimeo.com"],
} as const;

/**
 * 360° tours: the services Brazilian brokers publish tours on, each on the host its share links
 * use — Matterport (my.matterport.com/show/?m=…), Kuula (kuula.co/share/…), CloudPano
 * (app.cloudpano.com/tours/…) and Momento360 (momento360.com/e/u/…). Each page of these hosts is
 * made to be embedded.
 */
export const TOUR_HOSTS = ["my.matterport.com", "kuula.co", "www.kuula.co", "app.cloudpano.com", "momento360.com", "www.momento360.com"] as const;

/** Where the click-to-load players come from (for the CSP's frame-src). */
export const EMBED_ORIGINS = ["https://www.youtube-nocookie.com", "https://player.vimeo.com", ...TOUR_HOSTS.map((host) => `https://${host}`)] as const;

export type VideoLink = { provider: "youtube" | "vimeo"; id: string; hash: string | null; url: string };

/** The URL a person pasted: trimmed, "https://" added when they left it out; null if unreadable. */
function readLink(raw: string): URL | null {
  const text = raw.trim();
  if (!text || text.length > LINK_MAX_LENGTH || /\s/.test(text)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  // Only the web; never an address with a password in it.
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.port) return null;
  return url;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

function youtubeId(url: URL): string | null {
  if (url.hostname === "youtu.be") return url.pathname.split("/")[1] ?? null;
  if (url.pathname === "/watch") return url.searchParams.get("v");
  const [, kind, id] = url.pathname.split("/");
  return ["shorts", "embed", "live", "v"].includes(kind ?? "") ? (id ?? null) : null;
}

/** A YouTube or Vimeo video link read into its id (and Vimeo's privacy hash); null otherwise. */
export function parseVideoLink(raw: string): VideoLink | null {
  const url = readLink(raw);
  if (!url) return null;
  const host = url.hostname.toLowerCase();
  if ((VIDEO_HOSTS.youtube as readonly string[]).includes(host)) {
    const id = youtubeId(url);
    if (!id || !YOUTUBE_ID.test(id)) return null;
    return { provider: "youtube", id, hash: null, url: `https://www.youtube.com/watch?v=${id}` };
  }
  if ((VIDEO_HOSTS.vimeo as readonly string[]).includes(host)) {
    const segments = url.pathname.split("/").filter(Boolean);
    const index = segments.findIndex((segment) => /^\d{3,12}$/.test(segment));
    if (index < 0) return null;
    const id = segments[index];
    // Unlisted videos need their hash: vimeo.com/<id>/<hash> or player.vimeo.com/video/<id>?h=<hash>.
    const hash = [segments[index + 1], url.searchParams.get("h")].find((value) => value && /^[0-9a-f]{6,20}$/i.test(value)) ?? null;
    return { provider: "vimeo", id, hash, url: `https://vimeo.com/${id}${hash ? `/${hash}` : ""}` };
  }
  return null;
}

/** The click-to-load player's address (YouTube's no-cookie domain: no tracking before play). */
export function videoEmbedUrl(video: VideoLink): string {
  return video.provider === "youtube"
    ? `https://www.youtube-nocookie.com/embed/${video.id}`
    : `https://player.vimeo.com/video/${video.id}${video.hash ? `?h=${video.hash}` : ""}`;
}

/** A tour link on an accepted host, as it will be stored (https); null otherwise. */
export function normalizeTourLink(raw: string): string | null {
  const url = readLink(raw);
  if (!url || !(TOUR_HOSTS as readonly string[]).includes(url.hostname.toLowerCase())) return null;
  if (url.pathname === "/" && !url.search) return null; // the provider's home page is no tour
  url.protocol = "https:";
  url.hash = "";
  const normalized = url.toString();
  return normalized.length <= LINK_MAX_LENGTH ? normalized : null;
}
