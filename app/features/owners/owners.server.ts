import { and, asc, count, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox, owners, properties, property_captacao, property_owners } from "~/db/schema";
import type { CaptacaoAuthorization } from "~/db/values-owners";
import { type AuditActor, changedFields, recordAudit } from "~/features/audit/audit.server";
import type { MediaStorage } from "~/features/media/storage.server";
import { isUuid } from "~/lib/ids";
import { containsPattern } from "~/lib/pagination";
import { formatDocument } from "./document";
import type { OwnerInput } from "./schema";

/**
 * Owners (proprietários): staff-only data (decision 024). Their listings' captação is in
 * captacao.server.ts, their LGPD export in export.server.ts. Nothing here is read by a public
 * route; the audit trail records field NAMES only, never values.
 */

export const OWNER_LIST_LIMIT = 100;

const OWNER_FIELDS = ["full_name", "phone", "email", "document", "notes", "report_opt_out"] as const;
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

export type Deps = { db: Database; storage: MediaStorage };

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
