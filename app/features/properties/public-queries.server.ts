import { and, arrayContains, asc, count, desc, eq, gt, gte, inArray, lt, lte, ne, sql, type SQL } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
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

/** A card's columns (exported for the neighbourhood pages, app/features/neighbourhoods). */
export const cardColumns = {
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
  // Codes are stored upper-case and so is the search (parseListFilters): a plain "contains",
  // read through the trigram index on codigo (migration 0008).
  if (filters.codigo) conditions.push(sql`${propertiesPublic.codigo} like ${`%${escapeLike(filters.codigo)}%`} escape '\\'`);
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
  conditions.push(...listingConditions(filters));
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * Issue 22's filters (decision 017). Each predicate implies its partial index's (migration 0011):
 * `suites >= n`, `area >= n`, `condo_fee <= n` are false for null; `accepts_financing is true` and
 * the furnished value are literals; features read the GIN index through `@>`. Sold and rented
 * listings leave the list unless asked for (decision 002), with the statuses as literals.
 */
function listingConditions(filters: ListFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.suites !== FILTER_ALL) conditions.push(gte(propertiesPublic.suites, Number(filters.suites)));
  if (filters.areaMin !== null) conditions.push(gte(propertiesPublic.area, filters.areaMin));
  if (filters.areaMax !== null) conditions.push(lte(propertiesPublic.area, filters.areaMax));
  if (filters.condominioMax !== null) conditions.push(lte(propertiesPublic.condo_fee, filters.condominioMax));
  if (filters.carac.length > 0) conditions.push(arrayContains(propertiesPublic.features, filters.carac));
  if (filters.financiamento) conditions.push(sql`${propertiesPublic.accepts_financing} is true`);
  if (filters.mobiliado) conditions.push(sql`${propertiesPublic.furnished} = 'mobiliado'`);
  if (!filters.vendidos) conditions.push(sql`${propertiesPublic.status} in ('disponivel', 'em_negociacao')`);
  return conditions;
}

/** The public list's order: featured first, then newest; id keeps pages from overlapping on ties. */
export const LIST_ORDER = [desc(propertiesPublic.featured), desc(propertiesPublic.created_at), desc(propertiesPublic.id)];

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

/**
 * The listing whose code is exactly this one (ignoring case and surrounding spaces), for the
 * 'Código' search: a visitor who has a listing's code goes straight to its page.
 */
export async function findPublicPropertyIdByCodigo(db: Database, codigo: string): Promise<string | null> {
  const code = codigo.trim().toUpperCase();
  if (!code) return null;
  const [row] = await db.select({ id: propertiesPublic.id }).from(propertiesPublic).where(eq(propertiesPublic.codigo, code)).limit(1);
  return row?.id ?? null;
}

export const SIMILAR_COUNT = 3;

/**
 * 'Imóveis semelhantes' (issue 13): up to three available listings of the same type and purpose,
 * the same neighbourhood first, then the nearest in price (ties by id, so the order is stable). The
 * nearest few in price lie among the next few above and below it, so four short walks along
 * properties_similar_*_idx (migration 0008) replace a sort of every listing of that type:
 * above and below the price, in the neighbourhood and in any. At most twelve rows come back.
 */
export async function listSimilarProperties(
  db: Database,
  property: Pick<PublicPropertyDetail, "id" | "type" | "purpose" | "neighborhood" | "price">,
): Promise<PropertyCardData[]> {
  // The literal 'disponivel' (not a parameter) lets the planner match the partial indexes.
  const base = and(
    eq(propertiesPublic.type, property.type),
    eq(propertiesPublic.purpose, property.purpose),
    sql`${propertiesPublic.status} = 'disponivel'`,
    ne(propertiesPublic.id, property.id),
  );
  const sameNeighborhood = sql`immutable_unaccent(lower(${propertiesPublic.neighborhood})) = immutable_unaccent(lower(${property.neighborhood}))`;
  const walk = (neighborhood: SQL | undefined, above: boolean) =>
    db
      .select({ ...cardColumns, sameNeighborhood: sql<boolean>`${neighborhood ?? sql`false`}`.as("same_neighborhood") })
      .from(propertiesPublic)
      .where(and(base, neighborhood, above ? gte(propertiesPublic.price, property.price) : lt(propertiesPublic.price, property.price)))
      .orderBy(above ? asc(propertiesPublic.price) : desc(propertiesPublic.price), asc(propertiesPublic.id))
      .limit(SIMILAR_COUNT);
  const rows = await unionAll(walk(sameNeighborhood, true), walk(sameNeighborhood, false), walk(undefined, true), walk(undefined, false));
  const byId = new Map<string, (typeof rows)[number]>();
  // A listing found by both walks keeps the neighbourhood walk's mark.
  for (const row of rows) if (!byId.has(row.id) || row.sameNeighborhood) byId.set(row.id, row);
  const distance = (price: number | string) => Math.abs(Number(price) - property.price);
  return [...byId.values()]
    .sort(
      (a, b) =>
        Number(b.sameNeighborhood) - Number(a.sameNeighborhood) ||
        distance(a.price) - distance(b.price) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, SIMILAR_COUNT)
    .map(({ sameNeighborhood: _, ...card }) => toCard(card));
}

/** Favourites (/favoritos): the cards of these ids still on the site, in the order given. */
export async function listPublicPropertiesByIds(db: Database, ids: string[]): Promise<PropertyCardData[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const rows = await db.select(cardColumns).from(propertiesPublic).where(inArray(propertiesPublic.id, valid));
  const cards = new Map(rows.map((row) => [row.id, toCard(row)]));
  return valid.map((id) => cards.get(id)).filter((card) => card !== undefined);
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
      // The view gives these only when 'Exibir endereço' is on.
      street_address: propertiesPublic.street_address,
      cep: propertiesPublic.cep,
      // Issue 22 (decision 017): the listing's values, facts and features (none is an address).
      condo_fee: propertiesPublic.condo_fee,
      iptu_yearly: propertiesPublic.iptu_yearly,
      suites: propertiesPublic.suites,
      total_area: propertiesPublic.total_area,
      floor: propertiesPublic.floor,
      total_floors: propertiesPublic.total_floors,
      year_built: propertiesPublic.year_built,
      furnished: propertiesPublic.furnished,
      pets_allowed: propertiesPublic.pets_allowed,
      accepts_financing: propertiesPublic.accepts_financing,
      accepts_fgts: propertiesPublic.accepts_fgts,
      accepts_exchange: propertiesPublic.accepts_exchange,
      rental_guarantees: propertiesPublic.rental_guarantees,
      features: propertiesPublic.features,
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
    condo_fee: row.condo_fee === null ? null : Number(row.condo_fee),
    iptu_yearly: row.iptu_yearly === null ? null : Number(row.iptu_yearly),
    total_area: row.total_area === null ? null : Number(row.total_area),
    rental_guarantees: row.rental_guarantees ?? [],
    features: row.features ?? [],
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
export function toCard(row: Omit<PropertyCardData, "cover"> & { cover: string | null }): PropertyCardData {
  const cover = isCanonicalMediaUrl(row.cover) ? row.cover : null;
  return { ...row, price: Number(row.price), area: row.area === null ? null : Number(row.area), cover };
}
