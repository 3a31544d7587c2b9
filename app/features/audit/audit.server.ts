import type { Database } from "~/db/client.server";
import { audit_log } from "~/db/schema";

/** A transaction opened with `db.transaction(...)`: an audit row goes in with the change it records. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Who did it: the signed-in staff member, or null for the system (CLI, scheduled jobs). */
/** Who did it; name (when known) is what the lead timeline shows. */
export type AuditActor = { id: string; email: string; name?: string } | null;

export type AuditEntry = {
  actor: AuditActor;
  /** `<entity>.<verb>`, e.g. property.create, lead.update, user.role, backup.download. */
  action: string;
  entity: string;
  entityId?: string | null;
  /**
   * What changed. For personal data (leads, users) only the NAMES of the fields, never their
   * values: the audit trail is read by every admin and kept longer than the records.
   */
  details?: Record<string, unknown>;
};

/**
 * Writes one audit row. Pass the transaction of the change itself where there is one, so that a
 * change is never stored without its audit row (nor the row without the change).
 */
export async function recordAudit(db: Database | Tx, entry: AuditEntry): Promise<void> {
  await db.insert(audit_log).values({
    actor_id: entry.actor?.id ?? null,
    actor_email: entry.actor?.email ?? null,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId ?? null,
    details: entry.details ?? null,
  });
}

/**
 * The names of the fields whose values differ between two versions of a record (arrays and
 * dates compared by value). Only names: safe to audit for personal data.
 */
export function changedFields(before: object, after: object, fields: readonly string[]): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  return fields.filter((field) => field in b && !sameValue(a[field], b[field]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return new Date(a as Date).getTime() === new Date(b as Date).getTime();
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  if (typeof a === "number" || typeof b === "number") return (a === null || a === undefined ? a : Number(a)) === (b === null || b === undefined ? b : Number(b));
  return (a ?? null) === (b ?? null);
}
