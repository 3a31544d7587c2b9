import { and, asc, count, desc, eq, gt, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { isCanonicalMediaUrl, showableImages } from "~/features/media/urls";
import { isUuid } from "~/lib/ids";
import { escapeLike, pageInfo, type PageInfo } from "~/lib/pagination";
import { propertiesPublic } from "~/db/schema";
import { FILTER_ALL, LIST_PAGE_SIZE, PRICE_MAX, type ListFilters } from "./filters";
import type { PropertyCardData, PublicPropertyDetail } from "./types";

/**
 * Reads for visitors. They go through the properties_public view only, so broker_partner (and
 * any internal column added later) can never reach a visitor.
 */

/** The columns a visitor may see, except the photos (cards take the cover, the page all of them). */
const publicColumns = {
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
};

const cardColumns = {
  ...publicColumns,
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

/** The WHERE clause for the public list's filters (spec §2 "List"), evaluated by the database. */
export function filterConditions(filters: ListFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.tipo !== FILTER_ALL) conditions.push(eq(propertiesPublic.type, filters.tipo));
  if (filters.finalidade !== FILTER_ALL) conditions.push(eq(propertiesPublic.purpose, filters.finalidade));
  if (filters.bairro) {
    // Case- and accent-insensitive "contains": 'petropolis' finds Petrópolis. The expression is
    // the one properties_neighborhood_search_idx indexes (migration 0004), or the index is unused.
    const pattern = `%${escapeLike(filters.bairro)}%`;
    conditions.push(sql`immutable_unaccent(lower(${propertiesPublic.neighborhood})) like immutable_unaccent(lower(${pattern})) escape '\\'`);
  }
  if (filters.quartos === "4+") conditions.push(gte(propertiesPublic.bedrooms, 4));
  else if (filters.quartos !== FILTER_ALL) conditions.push(eq(propertiesPublic.bedrooms, Number(filters.quartos)));
  if (filters.vagas !== FILTER_ALL) conditions.push(gte(propertiesPublic.parking_spaces, Number(filters.vagas)));
  if (filters.precoMin > 0) conditions.push(gte(propertiesPublic.price, filters.precoMin));
  // The slider's top ('R$ 5.000.000+') sets no upper bound, so pricier listings still show.
  if (filters.precoMax < PRICE_MAX) conditions.push(lte(propertiesPublic.price, filters.precoMax));
  return conditions.length ? and(...conditions) : undefined;
}

/** The public list's order: featured first, then newest; id keeps pages from overlapping on ties. */
const LIST_ORDER = [desc(propertiesPublic.featured), desc(propertiesPublic.created_at), desc(propertiesPublic.id)];

/** Every listing matching the filters (tests and small callers; pages use listPublicPropertiesPage). */
export async function listPublicProperties(db: Database, filters?: ListFilters): Promise<PropertyCardData[]> {
  const rows = await db
    .select(cardColumns)
    .from(propertiesPublic)
    .where(filters ? filterConditions(filters) : undefined)
    .orderBy(...LIST_ORDER);
  return rows.map(toCard);
}

export type PublicListPage = PageInfo & { properties: PropertyCardData[] };

/**
 * One page of the public list. The count comes first so that a page past the end (a stale link,
 * a listing just removed) shows the last page instead of an empty one.
 */
export async function listPublicPropertiesPage(
  db: Database,
  filters: ListFilters,
  page: number,
  pageSize = LIST_PAGE_SIZE,
): Promise<PublicListPage> {
  const where = filterConditions(filters);
  const [{ total }] = await db.select({ total: count() }).from(propertiesPublic).where(where);
  const info = pageInfo(page, total, pageSize);
  const rows =
    total === 0
      ? []
      : await db
          .select(cardColumns)
          .from(propertiesPublic)
          .where(where)
          .orderBy(...LIST_ORDER)
          .limit(pageSize)
          .offset((info.page - 1) * pageSize);
  return { ...info, properties: rows.map(toCard) };
}

/** One property for its public page, or null (unknown or malformed id: never a database error). */
export async function getPublicProperty(db: Database, id: string): Promise<PublicPropertyDetail | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      ...publicColumns,
      state: propertiesPublic.state,
      images: propertiesPublic.images,
      created_at: propertiesPublic.created_at,
      updated_at: propertiesPublic.updated_at,
    })
    .from(propertiesPublic)
    .where(eq(propertiesPublic.id, id));
  if (!row) return null;
  return {
    ...row,
    // A row saved before photo URLs were checked may hold another site's URL: never shown.
    images: showableImages(row.images),
    price: Number(row.price),
    area: row.area === null ? null : Number(row.area),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export type SitemapEntry = { id: string; updated_at: string };

/**
 * Properties a search engine should know about (sitemap): the ones still on the market, in
 * batches along the primary key, so that ten thousand listings never sit in memory at once.
 */
export async function* sitemapProperties(db: Database, batchSize = 1000): AsyncGenerator<SitemapEntry[]> {
  let after: string | null = null;
  for (;;) {
    const rows: { id: string; updated_at: Date | string }[] = await db
      .select({ id: propertiesPublic.id, updated_at: propertiesPublic.updated_at })
      .from(propertiesPublic)
      .where(
        and(
          inArray(propertiesPublic.status, ["disponivel", "em_negociacao"]),
          after === null ? undefined : gt(propertiesPublic.id, after),
        ),
      )
      .orderBy(asc(propertiesPublic.id))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((row) => ({ id: row.id, updated_at: new Date(row.updated_at).toISOString() }));
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1].id;
  }
}

// The view's numeric columns keep drizzle's number mode; this only normalises the cover.
function toCard(row: Omit<PropertyCardData, "cover"> & { cover: string | null }): PropertyCardData {
  const cover = isCanonicalMediaUrl(row.cover) ? row.cover : null;
  return { ...row, price: Number(row.price), area: row.area === null ? null : Number(row.area), cover };
}
