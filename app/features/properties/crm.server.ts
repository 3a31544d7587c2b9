import { desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { properties } from "~/db/schema";
import { deleteUnusedMedia } from "~/features/media/cleanup.server";
import type { MediaStorage } from "~/features/media/storage.server";
import { isUuid } from "~/lib/ids";
import { PROPERTY_MESSAGES, type PropertyFormValues } from "./crm-schema";
import type { PublicPropertyDetail } from "./types";

/** The CRM's reads and writes of properties (staff only: routes check the role first). */

type Deps = { db: Database; storage: MediaStorage };

/** What the CRM shows and edits: everything a visitor sees, plus the internal partner. */
export type CrmProperty = Omit<PublicPropertyDetail, "updated_at"> & { broker_partner: string | null };

/** Every property, newest first (spec §7 "CRM reads"). */
export async function listCrmProperties(db: Database): Promise<CrmProperty[]> {
  const rows = await db.select().from(properties).orderBy(desc(properties.created_at));
  return rows.map((row) => ({
    id: row.id,
    codigo: row.codigo,
    title: row.title,
    description: row.description,
    type: row.type,
    purpose: row.purpose,
    status: row.status,
    featured: row.featured,
    price: Number(row.price),
    area: row.area === null ? null : Number(row.area),
    bedrooms: row.bedrooms,
    bathrooms: row.bathrooms,
    parking_spaces: row.parking_spaces,
    neighborhood: row.neighborhood,
    city: row.city,
    state: row.state,
    broker_partner: row.broker_partner,
    images: row.images,
    created_at: new Date(row.created_at).toISOString(),
  }));
}

export type SaveResult = { ok: true; id: string } | { ok: false; message: string; status: number };

function isUniqueViolation(error: unknown): boolean {
  // Both drivers surface PostgreSQL's SQLSTATE, sometimes on a wrapped cause.
  for (let current = error as { code?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === "23505") return true;
  }
  return false;
}

function rowFrom(values: PropertyFormValues) {
  return { ...values, broker_partner: values.broker_partner ?? null, updated_at: new Date() };
}

export async function createProperty(deps: Deps, values: PropertyFormValues): Promise<SaveResult> {
  try {
    const [row] = await deps.db.insert(properties).values(rowFrom(values)).returning({ id: properties.id });
    return { ok: true, id: row.id };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, message: PROPERTY_MESSAGES.duplicateCode, status: 409 };
    console.error("[crm] property could not be created:", error);
    return { ok: false, message: PROPERTY_MESSAGES.saveFailed, status: 500 };
  }
}

/**
 * Saves an edit. Photos taken out of the listing are deleted only once the new row is saved: a
 * failed save keeps every photo the listing had.
 */
export async function updateProperty(deps: Deps, id: string, values: PropertyFormValues): Promise<SaveResult> {
  if (!isUuid(id)) return { ok: false, message: PROPERTY_MESSAGES.saveFailed, status: 404 };
  let removed: string[] = [];
  try {
    const [before] = await deps.db.select({ images: properties.images }).from(properties).where(eq(properties.id, id));
    if (!before) return { ok: false, message: PROPERTY_MESSAGES.saveFailed, status: 404 };
    const [row] = await deps.db
      .update(properties)
      .set(rowFrom(values))
      .where(eq(properties.id, id))
      .returning({ id: properties.id });
    if (!row) return { ok: false, message: PROPERTY_MESSAGES.saveFailed, status: 404 };
    removed = before.images.filter((url) => !values.images.includes(url));
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, message: PROPERTY_MESSAGES.duplicateCode, status: 409 };
    console.error("[crm] property could not be updated:", error);
    return { ok: false, message: PROPERTY_MESSAGES.saveFailed, status: 500 };
  }
  await deleteUnusedMedia(deps, removed).catch((error) => console.error("[crm] removed photos not deleted:", error));
  return { ok: true, id };
}

export async function deleteProperty(deps: Deps, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [row] = await deps.db.delete(properties).where(eq(properties.id, id)).returning({ images: properties.images });
  if (!row) return false;
  await deleteUnusedMedia(deps, row.images).catch((error) => console.error("[crm] photos of a deleted property not deleted:", error));
  return true;
}

export async function setFeatured(db: Database, id: string, featured: boolean): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.update(properties).set({ featured, updated_at: new Date() }).where(eq(properties.id, id)).returning({ id: properties.id });
  return rows.length > 0;
}
