import { count, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { properties, property_captacao } from "~/db/schema";
import { type AuditActor, changedFields, recordAudit } from "~/features/audit/audit.server";
import { setActor } from "~/features/leads/timeline-actor.server";
import { deleteUnusedMedia } from "~/features/media/cleanup.server";
import type { MediaStorage } from "~/features/media/storage.server";
import { isUuid } from "~/lib/ids";
import { errorFields, logger } from "~/lib/logger.server";
import { containsPattern, pageInfo, type PageInfo, TABLE_PAGE_SIZE } from "~/lib/pagination";
import { PROPERTY_MESSAGES, type PropertyFormValues } from "./crm-schema";
import { photoListProblem } from "./photo-ownership.server";
import type { PublicPropertyDetail } from "./types";

/**
 * The CRM's reads and writes of properties (staff only: routes check the role first). Every
 * write records an audit row in the same transaction; property data is not personal, so the
 * row names the listing's code and the fields that changed.
 */

const log = logger("crm");

type Deps = { db: Database; storage: MediaStorage };

/** What the CRM shows and edits: everything a visitor sees, plus the internal partner. */
export type CrmProperty = Omit<PublicPropertyDetail, "updated_at"> & {
  broker_partner: string | null;
  /** The portals (issue 13); street_address and cep here whether or not the site shows them. */
  publish_to_portals: boolean;
  display_address: boolean;
} & ListingDetails;

/** The fields of issue 22, as the CRM edits them (number, complement and position always). */
export type ListingDetails = Pick<
  PropertyFormValues,
  | "condo_fee"
  | "iptu_yearly"
  | "suites"
  | "total_area"
  | "floor"
  | "total_floors"
  | "year_built"
  | "furnished"
  | "pets_allowed"
  | "accepts_financing"
  | "accepts_fgts"
  | "accepts_exchange"
  | "rental_guarantees"
  | "features"
  | "latitude"
  | "longitude"
  | "video_url"
  | "tour_url"
> & { address_number: string | null; address_complement: string | null };

export type CrmPropertiesPage = PageInfo & { properties: CrmProperty[]; search: string };

/**
 * Código, título or bairro contains the search, ignoring case and accents. The expression is the
 * one properties_crm_search_idx indexes (migration 0004): change both or the index goes unused.
 */
function searchCondition(search: string) {
  if (!search) return undefined;
  return sql`property_search_text(${properties.codigo}, ${properties.title}, ${properties.neighborhood}) like immutable_unaccent(lower(${containsPattern(search)})) escape '\\'`;
}

/** One page of properties, newest first (spec §7 "CRM reads"), optionally searched. */
export async function listCrmPropertiesPage(
  db: Database,
  { search, page }: { search: string; page: number },
  pageSize = TABLE_PAGE_SIZE,
): Promise<CrmPropertiesPage> {
  const where = searchCondition(search);
  const [{ total }] = await db.select({ total: count() }).from(properties).where(where);
  const info = pageInfo(page, total, pageSize);
  const rows =
    total === 0
      ? []
      : await db
          .select()
          .from(properties)
          .where(where)
          .orderBy(desc(properties.created_at), desc(properties.id))
          .limit(pageSize)
          .offset((info.page - 1) * pageSize);
  return { ...info, search, properties: rows.map(toCrmProperty) };
}

function toCrmProperty(row: typeof properties.$inferSelect): CrmProperty {
  return {
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
    publish_to_portals: row.publish_to_portals,
    street_address: row.street_address,
    cep: row.cep,
    display_address: row.display_address,
    condo_fee: row.condo_fee === null ? null : Number(row.condo_fee),
    iptu_yearly: row.iptu_yearly === null ? null : Number(row.iptu_yearly),
    suites: row.suites,
    total_area: row.total_area === null ? null : Number(row.total_area),
    floor: row.floor,
    total_floors: row.total_floors,
    year_built: row.year_built,
    furnished: row.furnished,
    pets_allowed: row.pets_allowed,
    accepts_financing: row.accepts_financing,
    accepts_fgts: row.accepts_fgts,
    accepts_exchange: row.accepts_exchange,
    rental_guarantees: row.rental_guarantees,
    features: row.features,
    address_number: row.address_number,
    address_complement: row.address_complement,
    latitude: row.latitude,
    longitude: row.longitude,
    video_url: row.video_url,
    tour_url: row.tour_url,
  };
}

export type SaveResult = { ok: true; id: string } | { ok: false; message: string; status: number; field?: string };

/** Thrown inside a save's transaction when the photo list holds a photo that is not the listing's. */
class PhotoListRefused extends Error {}

function isUniqueViolation(error: unknown): boolean {
  // Both drivers surface PostgreSQL's SQLSTATE, sometimes on a wrapped cause.
  for (let current = error as { code?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === "23505") return true;
  }
  return false;
}

function rowFrom(values: PropertyFormValues) {
  // null, not undefined: an update leaves undefined columns as they were, and a cleared field must clear.
  return {
    ...values,
    broker_partner: values.broker_partner ?? null,
    street_address: values.street_address ?? null,
    cep: values.cep ?? null,
    address_number: values.address_number ?? null,
    address_complement: values.address_complement ?? null,
    updated_at: new Date(),
  };
}

/** The fields an edit can change, compared to name what an update changed. */
const EDITABLE_FIELDS = [
  "codigo",
  "title",
  "description",
  "type",
  "purpose",
  "status",
  "featured",
  "price",
  "area",
  "bedrooms",
  "bathrooms",
  "parking_spaces",
  "neighborhood",
  "city",
  "state",
  "broker_partner",
  "images",
  "publish_to_portals",
  "street_address",
  "cep",
  "display_address",
  // Issue 22.
  "condo_fee",
  "iptu_yearly",
  "suites",
  "total_area",
  "floor",
  "total_floors",
  "year_built",
  "furnished",
  "pets_allowed",
  "accepts_financing",
  "accepts_fgts",
  "accepts_exchange",
  "rental_guarantees",
  "features",
  "address_number",
  "address_complement",
  "latitude",
  "longitude",
  "video_url",
  "tour_url",
] as const satisfies readonly (keyof PropertyFormValues)[];

export async function createProperty(deps: Deps, actor: AuditActor, values: PropertyFormValues): Promise<SaveResult> {
  try {
    const id = await deps.db.transaction(async (tx) => {
      await setActor(tx, actor); // names the actor of the status-history row (migration 0006)
      const photoProblem = await photoListProblem(tx, null, values.images);
      if (photoProblem) throw new PhotoListRefused(photoProblem);
      const [row] = await tx.insert(properties).values(rowFrom(values)).returning({ id: properties.id });
      await recordAudit(tx, { actor, action: "property.create", entity: "property", entityId: row.id, details: { codigo: values.codigo } });
      return row.id;
    });
    return { ok: true, id };
  } catch (error) {
    if (error instanceof PhotoListRefused) return { ok: false, message: error.message, status: 400, field: "images" };
    if (isUniqueViolation(error)) return { ok: false, message: PROPERTY_MESSAGES.duplicateCode, status: 409 };
    log.error({ ...errorFields(error) }, "property could not be created");
    return { ok: false, message: PROPERTY_MESSAGES.saveFailed, status: 500 };
  }
}

/**
 * Saves an edit. Photos taken out of the listing are deleted only once the new row is saved: a
 * failed save keeps every photo the listing had.
 */
export async function updateProperty(deps: Deps, actor: AuditActor, id: string, values: PropertyFormValues): Promise<SaveResult> {
  if (!isUuid(id)) return { ok: false, message: PROPERTY_MESSAGES.saveFailed, status: 404 };
  let removed: string[] = [];
  try {
    const found = await deps.db.transaction(async (tx) => {
      await setActor(tx, actor); // names the actor of the status-history row (migration 0006)
      // FOR UPDATE: two editors saving at once each audit the difference to what they replaced.
      const [before] = await tx.select().from(properties).where(eq(properties.id, id)).for("update");
      if (!before) return false;
      const photoProblem = await photoListProblem(tx, id, values.images);
      if (photoProblem) throw new PhotoListRefused(photoProblem);
      await tx.update(properties).set(rowFrom(values)).where(eq(properties.id, id));
      const fields = changedFields(before, values, EDITABLE_FIELDS);
      await recordAudit(tx, { actor, action: "property.update", entity: "property", entityId: id, details: { codigo: values.codigo, fields } });
      removed = before.images.filter((url) => !values.images.includes(url));
      return true;
    });
    if (!found) return { ok: false, message: PROPERTY_MESSAGES.saveFailed, status: 404 };
  } catch (error) {
    if (error instanceof PhotoListRefused) return { ok: false, message: error.message, status: 400, field: "images" };
    if (isUniqueViolation(error)) return { ok: false, message: PROPERTY_MESSAGES.duplicateCode, status: 409 };
    log.error({ ...errorFields(error) }, "property could not be updated");
    return { ok: false, message: PROPERTY_MESSAGES.saveFailed, status: 500 };
  }
  await deleteUnusedMedia(deps, removed).catch((error) => log.error({ ...errorFields(error) }, "removed photos not deleted"));
  return { ok: true, id };
}

export async function deleteProperty(deps: Deps, actor: AuditActor, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const deleted = await deps.db.transaction(async (tx) => {
    // The owners' signed authorisation (decision 024) goes with the listing: its row cascades, its file is deleted below.
    const [captacao] = await tx.select({ key: property_captacao.document_key }).from(property_captacao).where(eq(property_captacao.property_id, id));
    const [row] = await tx
      .delete(properties)
      .where(eq(properties.id, id))
      .returning({ images: properties.images, codigo: properties.codigo });
    if (!row) return null;
    await recordAudit(tx, { actor, action: "property.delete", entity: "property", entityId: id, details: { codigo: row.codigo } });
    return { images: row.images, documentKey: captacao?.key ?? null };
  });
  if (!deleted) return false;
  await deleteUnusedMedia(deps, deleted.images).catch((error) => log.error({ ...errorFields(error) }, "photos of a deleted property not deleted"));
  if (deleted.documentKey) {
    await deps.storage.delete([deleted.documentKey]).catch((error) => log.error({ ...errorFields(error) }, "authorisation of a deleted property not deleted"));
  }
  return true;
}

export async function setFeatured(db: Database, actor: AuditActor, id: string, featured: boolean): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(properties)
      .set({ featured, updated_at: new Date() })
      .where(eq(properties.id, id))
      .returning({ codigo: properties.codigo });
    if (!row) return false;
    await recordAudit(tx, { actor, action: "property.featured", entity: "property", entityId: id, details: { codigo: row.codigo, featured } });
    return true;
  });
}
