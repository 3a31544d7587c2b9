import { normalizeTourLink, parseVideoLink, videoEmbedUrl } from "./media-links";

/**
 * What the property page needs to show a listing's video and 360° tour (issue 22, item 5),
 * computed in the loader so the page's component stays a dumb renderer: the player's address
 * (YouTube through youtube-nocookie.com), the button's text and the frame's title. A stored link
 * that no longer parses (a host since removed from media-links.ts) is simply not shown.
 */
export type ListingEmbed = { kind: "video" | "tour"; src: string; label: string; title: string };

export function listingEmbeds(property: { video_url: string | null; tour_url: string | null; title: string }): ListingEmbed[] {
  const embeds: ListingEmbed[] = [];
  const video = property.video_url ? parseVideoLink(property.video_url) : null;
  if (video) {
    // The visitor already clicked 'Assistir': the player starts at once.
    const src = new URL(videoEmbedUrl(video));
    src.searchParams.set("autoplay", "1");
    embeds.push({ kind: "video", src: src.toString(), label: "Assistir ao vídeo", title: `Vídeo do imóvel: ${property.title}` });
  }
  const tour = property.tour_url ? normalizeTourLink(property.tour_url) : null;
  if (tour) embeds.push({ kind: "tour", src: tour, label: "Abrir tour 360°", title: `Tour 360° do imóvel: ${property.title}` });
  return embeds;
}

/** Property pages are the only ones that may frame anything: `/imoveis/<uuid>`. */
const PROPERTY_PAGE = /^\/imoveis\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isPropertyPagePath = (path: string) => PROPERTY_PAGE.test(path);
