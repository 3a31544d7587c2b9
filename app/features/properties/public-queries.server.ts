import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { propertiesPublic } from "~/db/schema";
import type { PropertyCardData } from "./types";

/**
 * Reads for visitors. They go through the properties_public view only, so broker_partner (and
 * any internal column added later) can never reach a visitor.
 */

const cardColumns = {
  id: propertiesPublic.id,
  codigo: propertiesPublic.codigo,
  title: propertiesPublic.title,
  description: propertiesPublic.description,
  type: propertiesPublic.type,
  purpose: propertiesPublic.purpose,
  status: propertiesPublic.status,
  featured: propertiesPublic.featured,
  price: propertiesPublic.price,
  area: propertiesPublic.area,
  bedrooms: propertiesPublic.bedrooms,
  bathrooms: propertiesPublic.bathrooms,
  parking_spaces: propertiesPublic.parking_spaces,
  neighborhood: propertiesPublic.neighborhood,
  city: propertiesPublic.city,
  // Only the first photo: a card needs its cover, not the whole gallery.
  cover: sql<string | null>`${propertiesPublic.images}[1]`,
};

export const FEATURED_ON_HOME = 3;

/** Up to three featured properties, newest first (home page). */
export async function listFeaturedProperties(db: Database): Promise<PropertyCardData[]> {
  const rows = await db
    .select(cardColumns)
    .from(propertiesPublic)
    .where(and(eq(propertiesPublic.featured, true)))
    .orderBy(desc(propertiesPublic.created_at))
    .limit(FEATURED_ON_HOME);
  return rows.map(toCard);
}

/** Every property: featured first, then newest. */
export async function listPublicProperties(db: Database): Promise<PropertyCardData[]> {
  const rows = await db
    .select(cardColumns)
    .from(propertiesPublic)
    .orderBy(desc(propertiesPublic.featured), desc(propertiesPublic.created_at));
  return rows.map(toCard);
}

// The view's numeric columns keep drizzle's number mode; this only normalises the cover.
function toCard(row: Omit<PropertyCardData, "cover"> & { cover: string | null }): PropertyCardData {
  return { ...row, price: Number(row.price), area: row.area === null ? null : Number(row.area), cover: row.cover ?? null };
}
