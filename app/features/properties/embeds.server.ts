import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { propertiesPublic } from "~/db/schema";
import { isUuid } from "~/lib/ids";
import { type ListingEmbed, listingEmbeds } from "./embeds";

/**
 * A public listing's click-to-load players (issue 22, item 5), read through the public view. Kept
 * apart from getPublicProperty so the page's data carries the players' addresses, not the raw links.
 */
export async function getListingEmbeds(db: Database, id: string): Promise<ListingEmbed[]> {
  if (!isUuid(id)) return [];
  const [row] = await db
    .select({ title: propertiesPublic.title, video_url: propertiesPublic.video_url, tour_url: propertiesPublic.tour_url })
    .from(propertiesPublic)
    .where(eq(propertiesPublic.id, id));
  return row ? listingEmbeds(row) : [];
}
