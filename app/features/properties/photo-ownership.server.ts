import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { media, properties } from "~/db/schema";
import { mediaIdFromUrl } from "~/features/media/urls";

/**
 * Which photos a listing may hold (issue 22, item 5): its order and cover are whatever the broker
 * saves, but only photos uploaded through the CRM (a row in `media`) that no other listing holds.
 * The form's schema already refuses anything that is not one of our canonical URLs; this is the
 * check that needs the database: a well-formed URL of a photo never uploaded, or one copied from
 * another listing (whose removal there would delete this listing's photo too).
 */
export const PHOTO_OWNERSHIP_MESSAGES = {
  repeated: "Foto repetida: cada foto entra uma vez no anúncio",
  notUploaded: "Foto não encontrada: envie as fotos por este formulário",
  foreign: (codigo: string) => `Foto de outro imóvel (código ${codigo}): envie as fotos deste imóvel por este formulário`,
} as const;

type Reader = Pick<Database, "select">;

/**
 * A Portuguese reason to refuse the list, or null when every photo is this listing's to hold. The
 * photos the listing already holds may stay, whatever their origin: a listing saved before this
 * check (photos imported or seeded without a `media` row) must keep saving.
 */
export async function photoListProblem(db: Reader, propertyId: string | null, images: readonly string[]): Promise<string | null> {
  if (images.length === 0) return null;
  if (new Set(images).size !== images.length) return PHOTO_OWNERSHIP_MESSAGES.repeated;
  const held = propertyId
    ? new Set((await db.select({ images: properties.images }).from(properties).where(eq(properties.id, propertyId)))[0]?.images ?? [])
    : new Set<string>();
  const added = images.filter((url) => !held.has(url));
  if (added.length === 0) return null;
  const ids = added.map(mediaIdFromUrl);
  if (ids.some((id) => id === null)) return PHOTO_OWNERSHIP_MESSAGES.notUploaded;
  const uploaded = await db.select({ id: media.id }).from(media).where(inArray(media.id, ids as string[]));
  if (uploaded.length !== new Set(ids).size) return PHOTO_OWNERSHIP_MESSAGES.notUploaded;
  const list = sql`array[${sql.join(added.map((url) => sql`${url}`), sql`, `)}]::text[]`;
  const overlap = sql`${properties.images} && ${list}`;
  const [other] = await db
    .select({ codigo: properties.codigo })
    .from(properties)
    .where(propertyId ? and(overlap, ne(properties.id, propertyId)) : overlap)
    .limit(1);
  return other ? PHOTO_OWNERSHIP_MESSAGES.foreign(other.codigo) : null;
}
