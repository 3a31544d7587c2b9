import { randomUUID } from "node:crypto";
import { and, asc, count, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox, owners, properties, property_captacao, property_owners } from "~/db/schema";
import type { CaptacaoAuthorization } from "~/db/values-owners";
import { type AuditActor, changedFields, recordAudit } from "~/features/audit/audit.server";
import type { MediaStorage } from "~/features/media/storage.server";
import { isUuid } from "~/lib/ids";
import { containsPattern } from "~/lib/pagination";
import { formatDocument } from "./document";
import type { CaptacaoInput, OwnerInput } from "./schema";

/**
 * Owners (proprietários) and the captação of their listings: staff-only data (decision 024).
 * Nothing here is read by a public route; the audit trail records field NAMES only, never values.
 */

export const OWNER_LIST_LIMIT = 100;
/** The authorisation PDF: at most 10 MB, and a PDF by its first bytes. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** The dashboard warns this many days before an exclusivity ends. */
export const EXCLUSIVITY_WARNING_DAYS = 30;

const OWNER_FIELDS = ["full_name", "phone", "email", "document", "notes", "report_opt_out"] as const;
const CAPTACAO_FIELDS = ["authorization_type", "starts_on", "ends_on", "commission", "keys_location", "report_note"] as const;
export const ANONYMIZED_OWNER_NAME = "Proprietário anonimizado";

export type OwnerRow = {
  id: string;
  full_name: string;
  phone: string | null;
  email: string | null;
  document: string | null;
  listings: number;
  anonymized: boolean;
};

const digits = (value: string) => value.replace(/\D/g, "");

/** The list, filtered by name (accents and case ignored), e-mail, phone or CPF/CNPJ digits. */
export async function listOwners(db: Database, q: string): Promise<{ rows: OwnerRow[]; total: number }> {
  const filters = [];
  if (q) {
    filters.push(sql`immutable_unaccent(lower(${owners.full_name})) like immutable_unaccent(lower(${containsPattern(q)})) escape '\\'`);
    filters.push(sql`lower(coalesce(${owners.email}, '')) like lower(${containsPattern(q)}) escape '\\'`);
    const number = digits(q);
    if (number.length >= 4) {
      filters.push(sql`regexp_replace(coalesce(${owners.phone}, ''), '\\D', '', 'g') like ${`%${number}%`}`);
      filters.push(sql`coalesce(${owners.document}, '') like ${`%${number}%`}`);
    }
  }
  const where = filters.length ? or(...filters) : undefined;
  const listings = db
    .select({ owner_id: property_owners.owner_id, n: count().as("n") })
    .from(property_owners)
    .groupBy(property_owners.owner_id)
    .as("listings");
  const [rows, [total]] = await Promise.all([
    db
      .select({ owner: owners, n: listings.n })
      .from(owners)
      .leftJoin(listings, eq(listings.owner_id, owners.id))
      .where(where)
      .orderBy(asc(owners.full_name), asc(owners.id))
      .limit(OWNER_LIST_LIMIT),
    db.select({ n: count() }).from(owners).where(where),
  ]);
  return {
    rows: rows.map(({ owner, n }) => ({
      id: owner.id,
      full_name: owner.full_name,
      phone: owner.phone,
      email: owner.email,
      document: owner.document ? formatDocument(owner.document) : null,
      listings: Number(n ?? 0),
      anonymized: owner.anonymized_at !== null,
    })),
    total: total.n,
  };
}

export type OwnerCaptacao = {
  authorization_type: CaptacaoAuthorization;
  starts_on: string | null;
  ends_on: string | null;
  commission: number | null;
  keys_location: string | null;
  report_note: string | null;
  has_document: boolean;
  document_size: number | null;
};

export type OwnerListing = { id: string; codigo: string; title: string; status: string; captacao: OwnerCaptacao | null };

export type OwnerDetails = {
  id: string;
  full_name: string;
  phone: string | null;
  email: string | null;
  document: string | null;
  notes: string | null;
  report_opt_out: boolean;
  anonymized: boolean;
  created_at: string;
  updated_at: string;
  listings: OwnerListing[];
};

/** One owner with their listings and each listing's captação, or null. */
export async function getOwner(db: Database, id: string): Promise<OwnerDetails | null> {
  if (!isUuid(id)) return null;
  const [owner] = await db.select().from(owners).where(eq(owners.id, id));
  if (!owner) return null;
  const rows = await db
    .select({ property: { id: properties.id, codigo: properties.codigo, title: properties.title, status: properties.status }, captacao: property_captacao })
    .from(property_owners)
    .innerJoin(properties, eq(properties.id, property_owners.property_id))
    .leftJoin(property_captacao, eq(property_captacao.property_id, properties.id))
    .where(eq(property_owners.owner_id, id))
    .orderBy(asc(properties.codigo));
  return {
    id: owner.id,
    full_name: owner.full_name,
    phone: owner.phone,
    email: owner.email,
    document: owner.document ? formatDocument(owner.document) : null,
    notes: owner.notes,
    report_opt_out: owner.report_opt_out,
    anonymized: owner.anonymized_at !== null,
    created_at: owner.created_at.toISOString(),
    updated_at: owner.updated_at.toISOString(),
    listings: rows.map(({ property, captacao }) => ({
      ...property,
      captacao: captacao
        ? {
            authorization_type: captacao.authorization_type,
            starts_on: captacao.starts_on,
            ends_on: captacao.ends_on,
            commission: captacao.commission === null ? null : Number(captacao.commission),
            keys_location: captacao.keys_location,
            report_note: captacao.report_note,
            has_document: captacao.document_key !== null,
            document_size: captacao.document_size,
          }
        : null,
    })),
  };
}

const ownerValues = (input: OwnerInput) => ({
  full_name: input.full_name,
  phone: input.phone ?? null,
  email: input.email?.toLowerCase() ?? null,
  document: input.document ?? null,
  notes: input.notes ?? null,
  report_opt_out: input.report_opt_out,
});

export async function createOwner(db: Database, actor: AuditActor, input: OwnerInput): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(owners).values(ownerValues(input)).returning({ id: owners.id });
    await recordAudit(tx, { actor, action: "owner.create", entity: "owner", entityId: row.id });
    return row.id;
  });
}

export async function updateOwner(db: Database, actor: AuditActor, id: string, input: OwnerInput): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(owners).where(eq(owners.id, id)).for("update");
    if (!before) return false;
    const values = ownerValues(input);
    const fields = changedFields(before, values, OWNER_FIELDS);
    await tx.update(owners).set({ ...values, updated_at: new Date() }).where(eq(owners.id, id));
    await recordAudit(tx, { actor, action: "owner.update", entity: "owner", entityId: id, details: { fields } });
    return true;
  });
}

/** The storage keys of the authorisations of an owner's listings (the PDFs name the owners). */
async function documentKeysOfOwner(db: Database | Parameters<Parameters<Database["transaction"]>[0]>[0], ownerId: string) {
  const rows = await db
    .select({ property_id: property_captacao.property_id, key: property_captacao.document_key })
    .from(property_captacao)
    .innerJoin(property_owners, eq(property_owners.property_id, property_captacao.property_id))
    .where(and(eq(property_owners.owner_id, ownerId), isNotNull(property_captacao.document_key)));
  return rows.filter((row): row is { property_id: string; key: string } => row.key !== null);
}

type Deps = { db: Database; storage: MediaStorage };

/** The owner reports mailed to an owner (they carry the name): deleted with the owner's data. */
async function deleteReportMails(tx: Parameters<Parameters<Database["transaction"]>[0]>[0], email: string | null) {
  if (!email) return 0;
  const removed = await tx
    .delete(outbox)
    .where(and(eq(outbox.kind, "owner_report"), sql`lower(${outbox.to_address}) = lower(${email})`))
    .returning({ id: outbox.id });
  return removed.length;
}


/**
 * Deletes an owner: the row, their links and the authorisation PDFs of their listings (from the
 * database and from the storage), so that no copy of their data is left (LGPD). The audit row
 * keeps the id only.
 */
export async function deleteOwner(deps: Deps, actor: AuditActor, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const keys = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select({ id: owners.id, email: owners.email }).from(owners).where(eq(owners.id, id)).for("update");
    if (!row) return null;
    await deleteReportMails(tx, row.email);
    const documents = await documentKeysOfOwner(tx, id);
    if (documents.length) {
      await tx
        .update(property_captacao)
        .set({ document_key: null, document_size: null, document_uploaded_at: null, updated_at: new Date() })
        .where(inArray(property_captacao.property_id, documents.map((document) => document.property_id)));
    }
    await tx.delete(owners).where(eq(owners.id, id));
    await recordAudit(tx, { actor, action: "owner.delete", entity: "owner", entityId: id, details: { documents: documents.length } });
    return documents.map((document) => document.key);
  });
  if (keys === null) return false;
  if (keys.length) await deps.storage.delete(keys);
  return true;
}

/**
 * Anonymises an owner (LGPD, admins): name replaced by a marker, contact, CPF/CNPJ and notes
 * erased, their listings' authorisation PDFs deleted; the links stay, so a listing's history
 * still shows that it had an owner.
 */
export async function anonymizeOwner(deps: Deps, actor: AuditActor, id: string): Promise<"ok" | "missing" | "already"> {
  if (!isUuid(id)) return "missing";
  const keys = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select({ id: owners.id, email: owners.email, anonymized_at: owners.anonymized_at }).from(owners).where(eq(owners.id, id)).for("update");
    if (!row) return "missing" as const;
    if (row.anonymized_at) return "already" as const;
    await deleteReportMails(tx, row.email);
    const documents = await documentKeysOfOwner(tx, id);
    if (documents.length) {
      await tx
        .update(property_captacao)
        .set({ document_key: null, document_size: null, document_uploaded_at: null, updated_at: new Date() })
        .where(inArray(property_captacao.property_id, documents.map((document) => document.property_id)));
    }
    await tx
      .update(owners)
      .set({ full_name: ANONYMIZED_OWNER_NAME, phone: null, email: null, document: null, notes: null, anonymized_at: new Date(), updated_at: new Date() })
      .where(eq(owners.id, id));
    await recordAudit(tx, { actor, action: "owner.anonymize", entity: "owner", entityId: id, details: { documents: documents.length } });
    return documents.map((document) => document.key);
  });
  if (typeof keys === "string") return keys;
  if (keys.length) await deps.storage.delete(keys);
  return "ok";
}

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

/** Everything held about an owner, in Portuguese, for the LGPD export (admins). */
export async function exportOwner(db: Database, id: string) {
  const owner = await getOwner(db, id);
  if (!owner) return null;
  const [row] = await db.select({ document: owners.document }).from(owners).where(eq(owners.id, id));
  return {
    titular: "proprietário",
    gerado_em: new Date().toISOString(),
    dados: {
      id: owner.id,
      nome: owner.full_name,
      telefone: owner.phone,
      email: owner.email,
      cpf_cnpj: row?.document ? formatDocument(row.document) : null,
      observacoes: owner.notes,
      nao_receber_relatorio: owner.report_opt_out,
      anonimizado: owner.anonymized,
      criado_em: owner.created_at,
      atualizado_em: owner.updated_at,
    },
    imoveis: owner.listings.map((listing) => ({
      codigo: listing.codigo,
      titulo: listing.title,
      captacao: listing.captacao
        ? {
            autorizacao: listing.captacao.authorization_type === "exclusiva" ? "exclusiva" : "não exclusiva",
            inicio: listing.captacao.starts_on,
            termino: listing.captacao.ends_on,
            comissao_percentual: listing.captacao.commission,
            local_das_chaves: listing.captacao.keys_location,
            nota_do_relatorio: listing.captacao.report_note,
            documento_pdf_guardado: listing.captacao.has_document,
          }
        : null,
    })),
  };
}
