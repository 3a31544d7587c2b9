import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { media } from "~/db/schema";
import { largeJpegFromStored } from "./pipeline.server";
import type { MediaStorage } from "./storage.server";
import { LARGE_JPEG_FILE } from "./urls";

/**
 * The large JPEG (/media/{id}/1600.jpg) of a photo uploaded before the pipeline made one
 * (issue 13: the portals' feed lists JPEG URLs for every photo). Made from the photo's 1600.webp
 * the first time it is asked for, and stored beside its other files, so it is made once; the
 * photo's clean-up (cleanup.server.ts) removes it with the rest.
 *
 * - Only for a photo we know (a row in `media`): a made-up id costs a lookup, never a conversion.
 * - One conversion per photo at a time in this process: requests that arrive meanwhile (a portal
 *   fetching in parallel) wait for the same promise. Two processes asking at the same moment may
 *   both convert; each write replaces the file whole with the same picture, so that costs CPU
 *   once more, never a broken file. Holding a database lock instead would keep the embedded
 *   database's one connection busy while sharp works.
 * - A photo deleted while its JPEG was being made: the file is removed again, so no file
 *   outlives its photo's row (the daily sweep goes by the rows).
 */

type Deps = { db: Database; storage: MediaStorage };

const inFlight = new Map<string, Promise<Buffer | null>>();

async function create(deps: Deps, id: string): Promise<Buffer | null> {
  const key = `${id}/${LARGE_JPEG_FILE}`;
  // Made by another request (or process) since this one found no file.
  const stored = await deps.storage.get(key);
  if (stored) return stored.body;
  const [known] = await deps.db.select({ id: media.id }).from(media).where(eq(media.id, id));
  if (!known) return null;
  const source = await deps.storage.get(`${id}/1600.webp`);
  if (!source) return null;
  const body = await largeJpegFromStored(source.body);
  await deps.storage.put(key, body, "image/jpeg");
  const [still] = await deps.db
    .update(media)
    .set({ bytes: sql`${media.bytes} + ${body.length}` })
    .where(eq(media.id, id))
    .returning({ id: media.id });
  if (!still) {
    await deps.storage.delete([key]);
    return null;
  }
  return body;
}

/** The photo's large JPEG, made now if it was never made; null for an unknown photo. */
export function largeJpegOnDemand(deps: Deps, id: string): Promise<Buffer | null> {
  let pending = inFlight.get(id);
  if (!pending) {
    pending = create(deps, id).finally(() => inFlight.delete(id));
    inFlight.set(id, pending);
  }
  return pending;
}
