import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { media, properties, settings } from "~/db/schema";
import { SETTING_KEYS } from "~/features/settings/keys";
import { getBrokerProfile } from "~/features/site/broker-profile.server";
import type { MediaStorage } from "./storage.server";
import { mediaIdFromUrl, storedFileNames } from "./urls";

/**
 * Removing photos nobody uses any more: the ones a broker removed from a listing (after the save
 * commits), those of a deleted listing, those uploaded in a dialog that was cancelled, and — as
 * a safety net — anything left unreferenced for a day (a browser closed mid-upload). The broker's
 * portrait (settings, or the configured default) is in use like a listing's photo.
 */

type Deps = { db: Database; storage: MediaStorage };

async function referencedIds(db: Database, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const urls = await db
    .select({ url: sql<string>`unnest(${properties.images})` })
    .from(properties);
  const [profile] = await db
    .select({ url: sql<string | null>`${settings.value}->>'portraitUrl'` })
    .from(settings)
    .where(eq(settings.key, SETTING_KEYS.brokerProfile));
  const portraits = [profile?.url, getBrokerProfile().portraitUrl].filter((url): url is string => typeof url === "string");
  return new Set(
    [...urls.map((row) => row.url), ...portraits]
      .map(mediaIdFromUrl)
      .filter((id): id is string => id !== null && ids.includes(id)),
  );
}

/** Deletes the files and rows of these photos, skipping any a listing still shows. */
export async function deleteUnusedMedia(deps: Deps, urls: string[]): Promise<number> {
  const ids = [...new Set(urls.map(mediaIdFromUrl).filter((id): id is string => id !== null))];
  if (ids.length === 0) return 0;
  const stillUsed = await referencedIds(deps.db, ids);
  const unused = ids.filter((id) => !stillUsed.has(id));
  if (unused.length === 0) return 0;
  await deps.db.delete(media).where(inArray(media.id, unused));
  await deps.storage.delete(unused.flatMap((id) => storedFileNames().map((file) => `${id}/${file}`)));
  return unused.length;
}

/** Photos older than `olderThanHours` that no listing refers to. */
export async function sweepOrphanMedia(deps: Deps, olderThanHours = 24): Promise<number> {
  const old = await deps.db
    .select({ id: media.id })
    .from(media)
    .where(and(lt(media.created_at, new Date(Date.now() - olderThanHours * 3600 * 1000))));
  if (old.length === 0) return 0;
  return deleteUnusedMedia(deps, old.map((row) => `/media/${row.id}/800.webp`));
}
