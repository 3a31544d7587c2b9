import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { neighbourhood_texts, propertiesPublic } from "~/db/schema";
import type { PropertyPurpose, PropertyStatus, PropertyType } from "~/db/values";
import { recordAudit, type AuditActor } from "~/features/audit/audit.server";
import { cardColumns, LIST_ORDER, toCard } from "~/features/properties/public-queries.server";
import type { PropertyCardData } from "~/features/properties/types";
import { isNeighbourhoodSlug, neighbourhoodSlug } from "./slug";

/**
 * The neighbourhood pages' reads and the broker's text (docs/decisions/021-neighbourhood-pages.md).
 * Neighbourhoods come from the listings themselves: every spelling in properties_public.neighborhood
 * whose slug is the same ('Petrópolis', 'Petropolis ') is one neighbourhood. Only listings on the
 * market count (disponível, em negociação): sold and rented ones never appear here. Public code
 * reads through properties_public only.
 */

/** Statuses of a listing still on the market; a literal, so the planner can use partial indexes. */
export const ON_MARKET_STATUSES: readonly PropertyStatus[] = ["disponivel", "em_negociacao"];
const onMarket = sql`${propertiesPublic.status} in ('disponivel', 'em_negociacao')`;

/** Cards on one neighbourhood page; a bigger neighbourhood links to the filtered list for the rest. */
export const NEIGHBOURHOOD_PAGE_LISTINGS = 60;

export type NeighbourhoodSummary = {
  slug: string;
  /** The spelling most listings use (ties: alphabetical). */
  name: string;
  city: string;
  state: string;
  /** Listings on the market, and of them for sale and for rent. */
  total: number;
  sale: number;
  rent: number;
  /** Every spelling of it in the listings (the page's query matches these exactly). */
  spellings: string[];
};

/**
 * Every neighbourhood with a listing on the market, by name. One grouped query (a row per
 * spelling, city and purpose: tens of rows, not one per listing); the slugs join them here.
 */
export async function listNeighbourhoods(db: Database): Promise<NeighbourhoodSummary[]> {
  const rows = await db
    .select({
      neighborhood: propertiesPublic.neighborhood,
      city: propertiesPublic.city,
      state: propertiesPublic.state,
      purpose: propertiesPublic.purpose,
      n: count(),
    })
    .from(propertiesPublic)
    .where(onMarket)
    .groupBy(propertiesPublic.neighborhood, propertiesPublic.city, propertiesPublic.state, propertiesPublic.purpose);

  type Acc = NeighbourhoodSummary & { bySpelling: Map<string, number>; byPlace: Map<string, number> };
  const bySlug = new Map<string, Acc>();
  for (const row of rows) {
    const slug = neighbourhoodSlug(row.neighborhood);
    if (!slug) continue;
    let acc = bySlug.get(slug);
    if (!acc) {
      acc = { slug, name: "", city: "", state: "", total: 0, sale: 0, rent: 0, spellings: [], bySpelling: new Map(), byPlace: new Map() };
      bySlug.set(slug, acc);
    }
    acc.total += row.n;
    if (row.purpose === "venda") acc.sale += row.n;
    else acc.rent += row.n;
    acc.bySpelling.set(row.neighborhood, (acc.bySpelling.get(row.neighborhood) ?? 0) + row.n);
    const place = `${row.city}\u0000${row.state}`;
    acc.byPlace.set(place, (acc.byPlace.get(place) ?? 0) + row.n);
  }
  const mostCommon = (counts: Map<string, number>) =>
    [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))[0][0];
  return [...bySlug.values()]
    .map(({ bySpelling, byPlace, ...summary }) => {
      const [city, state] = mostCommon(byPlace).split("\u0000");
      return { ...summary, name: mostCommon(bySpelling).trim(), city, state, spellings: [...bySpelling.keys()].sort() };
    })
    .sort((a, b) => a.name.localeCompare(b.name, "pt-BR"));
}

/** The neighbourhood of this slug, or null (unknown, malformed, or nothing on the market there). */
export async function findNeighbourhood(db: Database, slug: string): Promise<NeighbourhoodSummary | null> {
  if (!isNeighbourhoodSlug(slug)) return null;
  return (await listNeighbourhoods(db)).find((neighbourhood) => neighbourhood.slug === slug) ?? null;
}

export type TypePurposeStats = { type: PropertyType; purpose: PropertyPurpose; count: number; minPrice: number | null; maxPrice: number | null };
export type PurposeStats = { purpose: PropertyPurpose; count: number; minPrice: number | null; maxPrice: number | null };

export type NeighbourhoodPageData = {
  neighbourhood: NeighbourhoodSummary;
  /** Featured first, then newest, as the public list orders them; at most NEIGHBOURHOOD_PAGE_LISTINGS. */
  listings: PropertyCardData[];
  byTypeAndPurpose: TypePurposeStats[];
  byPurpose: PurposeStats[];
  /** The broker's text, or null. */
  text: string | null;
};

/**
 * Everything a neighbourhood page shows. Counts and price ranges are the database's (count, min,
 * max); a price of 0 ('Sob consulta') counts as a listing but is no price, so it stays out of the
 * range.
 */
export async function getNeighbourhoodPage(db: Database, slug: string): Promise<NeighbourhoodPageData | null> {
  const neighbourhood = await findNeighbourhood(db, slug);
  if (!neighbourhood) return null;
  const where = and(onMarket, inArray(propertiesPublic.neighborhood, neighbourhood.spellings));
  const priced = sql`${propertiesPublic.price} > 0`;
  const minPrice = sql<number | null>`min(${propertiesPublic.price}) filter (where ${priced})`.mapWith(Number);
  const maxPrice = sql<number | null>`max(${propertiesPublic.price}) filter (where ${priced})`.mapWith(Number);
  const [listings, byTypeAndPurpose, byPurpose, text] = await Promise.all([
    db.select(cardColumns).from(propertiesPublic).where(where).orderBy(...LIST_ORDER).limit(NEIGHBOURHOOD_PAGE_LISTINGS),
    db
      .select({ type: propertiesPublic.type, purpose: propertiesPublic.purpose, count: count(), minPrice, maxPrice })
      .from(propertiesPublic)
      .where(where)
      .groupBy(propertiesPublic.type, propertiesPublic.purpose)
      .orderBy(desc(propertiesPublic.purpose), asc(propertiesPublic.type)),
    db
      .select({ purpose: propertiesPublic.purpose, count: count(), minPrice, maxPrice })
      .from(propertiesPublic)
      .where(where)
      .groupBy(propertiesPublic.purpose)
      // Venda before aluguel.
      .orderBy(desc(propertiesPublic.purpose)),
    getNeighbourhoodText(db, slug),
  ]);
  return { neighbourhood, listings: listings.map(toCard), byTypeAndPurpose, byPurpose, text };
}

/** The broker's text about a neighbourhood, or null. */
export async function getNeighbourhoodText(db: Database, slug: string): Promise<string | null> {
  const [row] = await db.select({ text: neighbourhood_texts.text }).from(neighbourhood_texts).where(eq(neighbourhood_texts.slug, slug)).limit(1);
  return row?.text ?? null;
}

/** Every saved text, by slug (the CRM page). */
export async function listNeighbourhoodTexts(db: Database): Promise<Map<string, { text: string; updated_at: string; updated_by: string | null }>> {
  const rows = await db.select().from(neighbourhood_texts);
  return new Map(rows.map((row) => [row.slug, { text: row.text, updated_at: new Date(row.updated_at).toISOString(), updated_by: row.updated_by }]));
}

/**
 * Saves (or, when empty, removes) the broker's text, with its audit row in the same transaction.
 * Returns whether anything changed; an unchanged text writes nothing.
 */
export async function saveNeighbourhoodText(
  db: Database,
  actor: AuditActor,
  neighbourhood: Pick<NeighbourhoodSummary, "slug" | "name">,
  text: string,
): Promise<boolean> {
  const { slug } = neighbourhood;
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ text: neighbourhood_texts.text }).from(neighbourhood_texts).where(eq(neighbourhood_texts.slug, slug)).for("update");
    if ((before?.text ?? "") === text) return false;
    if (text === "") {
      await tx.delete(neighbourhood_texts).where(eq(neighbourhood_texts.slug, slug));
    } else {
      await tx
        .insert(neighbourhood_texts)
        .values({ slug, text, updated_by: actor?.email ?? null })
        .onConflictDoUpdate({ target: neighbourhood_texts.slug, set: { text, updated_at: sql`now()`, updated_by: actor?.email ?? null } });
    }
    // Which neighbourhood and how long the text now is (0: removed); the text itself is on the page.
    await recordAudit(tx, {
      actor,
      action: "neighbourhood.text",
      entity: "neighbourhood",
      entityId: slug,
      details: { name: neighbourhood.name, textLength: text.length },
    });
    return true;
  });
}

/** Slugs of every neighbourhood (the sitemap). */
export async function sitemapNeighbourhoodSlugs(db: Database): Promise<string[]> {
  return (await listNeighbourhoods(db)).map((neighbourhood) => neighbourhood.slug);
}
