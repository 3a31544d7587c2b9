import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { owners, properties, property_captacao, property_owners } from "~/db/schema";
import { type AuditActor, changedFields, recordAudit } from "~/features/audit/audit.server";
import { isUuid } from "~/lib/ids";
import type { Deps } from "./owners.server";
import type { CaptacaoInput } from "./schema";

/**
 * A listing's captação (decision 024): which owner it belongs to, the authorisation's terms, the
 * signed PDF in private storage, and the dashboard's warning before an exclusivity ends. The
 * owners themselves are in owners.server.ts.
 */

/** The authorisation PDF: at most 10 MB, and a PDF by its first bytes. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** The dashboard warns this many days before an exclusivity ends. */
export const EXCLUSIVITY_WARNING_DAYS = 30;

const CAPTACAO_FIELDS = ["authorization_type", "starts_on", "ends_on", "commission", "keys_location", "report_note"] as const;

/** Links a listing (by its code) to an owner. */
export async function linkListing(db: Database, actor: AuditActor, ownerId: string, codigo: string): Promise<"ok" | "owner" | "property" | "already"> {
  if (!isUuid(ownerId)) return "owner";
  return db.transaction(async (tx) => {
    const [owner] = await tx.select({ id: owners.id }).from(owners).where(eq(owners.id, ownerId));
    if (!owner) return "owner" as const;
    const [property] = await tx.select({ id: properties.id, codigo: properties.codigo }).from(properties).where(sql`upper(${properties.codigo}) = upper(${codigo})`);
    if (!property) return "property" as const;
    const inserted = await tx.insert(property_owners).values({ owner_id: ownerId, property_id: property.id }).onConflictDoNothing().returning();
    if (inserted.length === 0) return "already" as const;
    await recordAudit(tx, { actor, action: "owner.link", entity: "owner", entityId: ownerId, details: { property: property.codigo } });
    return "ok" as const;
  });
}

export async function unlinkListing(db: Database, actor: AuditActor, ownerId: string, propertyId: string): Promise<boolean> {
  if (!isUuid(ownerId) || !isUuid(propertyId)) return false;
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(property_owners)
      .where(and(eq(property_owners.owner_id, ownerId), eq(property_owners.property_id, propertyId)))
      .returning();
    if (removed.length === 0) return false;
    const [property] = await tx.select({ codigo: properties.codigo }).from(properties).where(eq(properties.id, propertyId));
    await recordAudit(tx, { actor, action: "owner.unlink", entity: "owner", entityId: ownerId, details: { property: property?.codigo ?? null } });
    return true;
  });
}

/** Whether the owner is linked to the listing (captação is edited from the owner's page). */
export async function isLinked(db: Database, ownerId: string, propertyId: string): Promise<boolean> {
  if (!isUuid(ownerId) || !isUuid(propertyId)) return false;
  const [row] = await db
    .select({ id: property_owners.property_id })
    .from(property_owners)
    .where(and(eq(property_owners.owner_id, ownerId), eq(property_owners.property_id, propertyId)));
  return Boolean(row);
}

/** Creates or updates a listing's captação; the audit row names the changed fields. */
export async function saveCaptacao(db: Database, actor: AuditActor, propertyId: string, input: CaptacaoInput): Promise<void> {
  const values = {
    authorization_type: input.authorization_type,
    starts_on: input.starts_on ?? null,
    ends_on: input.ends_on ?? null,
    commission: input.commission ?? null,
    keys_location: input.keys_location ?? null,
    report_note: input.report_note ?? null,
  };
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(property_captacao).where(eq(property_captacao.property_id, propertyId)).for("update");
    const fields = before ? changedFields(before, values, CAPTACAO_FIELDS) : [...CAPTACAO_FIELDS];
    await tx
      .insert(property_captacao)
      .values({ property_id: propertyId, ...values })
      .onConflictDoUpdate({ target: property_captacao.property_id, set: { ...values, updated_at: new Date() } });
    const [property] = await tx.select({ codigo: properties.codigo }).from(properties).where(eq(properties.id, propertyId));
    await recordAudit(tx, { actor, action: "captacao.update", entity: "property", entityId: propertyId, details: { property: property?.codigo ?? null, fields } });
  });
}

export class DocumentRejected extends Error {}

/** A PDF starts with "%PDF-" (some writers put a few bytes before it: allowed in the first 1 KB). */
export function isPdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  return head.includes("%PDF-");
}

/**
 * Stores the authorisation PDF of a listing's captação (which must exist) in the private storage,
 * replacing (and deleting) the previous one. Keys start with "private-" so the public /media
 * route, which serves photo ids and photo file names only, can never reach them.
 */
export async function storeDocument(deps: Deps, actor: AuditActor, propertyId: string, bytes: Buffer): Promise<"ok" | "no-captacao"> {
  if (bytes.length === 0 || !isPdf(bytes)) throw new DocumentRejected("not a pdf");
  if (bytes.length > MAX_DOCUMENT_BYTES) throw new DocumentRejected("too large");
  const [existing] = await deps.db.select({ key: property_captacao.document_key }).from(property_captacao).where(eq(property_captacao.property_id, propertyId));
  if (!existing) return "no-captacao";
  const key = `private-${randomUUID()}/autorizacao.pdf`;
  // Written first, outside any transaction (never await the storage while holding the database).
  await deps.storage.put(key, bytes, "application/pdf");
  const previous = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select({ key: property_captacao.document_key }).from(property_captacao).where(eq(property_captacao.property_id, propertyId)).for("update");
    if (!row) return undefined;
    await tx
      .update(property_captacao)
      .set({ document_key: key, document_size: bytes.length, document_uploaded_at: new Date(), updated_at: new Date() })
      .where(eq(property_captacao.property_id, propertyId));
    await recordAudit(tx, { actor, action: "captacao.document", entity: "property", entityId: propertyId, details: { size: bytes.length } });
    return row.key;
  });
  if (previous === undefined) {
    await deps.storage.delete([key]);
    return "no-captacao";
  }
  if (previous) await deps.storage.delete([previous]).catch(() => {});
  return "ok";
}

export async function removeDocument(deps: Deps, actor: AuditActor, propertyId: string): Promise<boolean> {
  const previous = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select({ key: property_captacao.document_key }).from(property_captacao).where(eq(property_captacao.property_id, propertyId)).for("update");
    if (!row?.key) return null;
    await tx
      .update(property_captacao)
      .set({ document_key: null, document_size: null, document_uploaded_at: null, updated_at: new Date() })
      .where(eq(property_captacao.property_id, propertyId));
    await recordAudit(tx, { actor, action: "captacao.document_delete", entity: "property", entityId: propertyId });
    return row.key;
  });
  if (!previous) return false;
  await deps.storage.delete([previous]);
  return true;
}

/** The stored PDF of a listing's authorisation, or null. */
export async function readDocument(deps: Deps, propertyId: string): Promise<Buffer | null> {
  if (!isUuid(propertyId)) return null;
  const [row] = await deps.db.select({ key: property_captacao.document_key }).from(property_captacao).where(eq(property_captacao.property_id, propertyId));
  if (!row?.key) return null;
  const stored = await deps.storage.get(row.key);
  return stored?.body ?? null;
}

export type ExclusivityWarning = { propertyId: string; codigo: string; daysLeft: number; text: string; ownerId: string | null };

/**
 * Exclusive captações ending within EXCLUSIVITY_WARNING_DAYS of the broker's today (inclusive:
 * 30 days before the end date is the first day of the warning), soonest first.
 */
export async function exclusivityWarnings(db: Database, today: string): Promise<ExclusivityWarning[]> {
  const rows = await db
    .select({
      propertyId: property_captacao.property_id,
      codigo: properties.codigo,
      daysLeft: sql<number>`(${property_captacao.ends_on} - ${today}::date)::int`,
      ownerId: sql<string | null>`(select ${property_owners.owner_id}::text from ${property_owners} where ${property_owners.property_id} = ${property_captacao.property_id} order by ${property_owners.created_at} limit 1)`,
    })
    .from(property_captacao)
    .innerJoin(properties, eq(properties.id, property_captacao.property_id))
    .where(
      and(
        eq(property_captacao.authorization_type, "exclusiva"),
        sql`${property_captacao.ends_on} between ${today}::date and ${today}::date + ${EXCLUSIVITY_WARNING_DAYS}::int`,
      ),
    )
    .orderBy(asc(property_captacao.ends_on), asc(properties.codigo))
    .limit(50);
  return rows.map((row) => {
    const daysLeft = Number(row.daysLeft);
    const when = daysLeft === 0 ? "hoje" : daysLeft === 1 ? "em 1 dia" : `em ${daysLeft} dias`;
    return { propertyId: row.propertyId, codigo: row.codigo, daysLeft, ownerId: row.ownerId, text: `Exclusividade de ${row.codigo} termina ${when}` };
  });
}
