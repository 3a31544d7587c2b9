import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads } from "~/db/schema";
import type { LeadStatus } from "~/db/values";
import { reasonKey } from "~/features/settings/lost-reasons";
import { loadLostReasons } from "~/features/settings/lost-reasons.server";
import { isUuid } from "~/lib/ids";
import { LOSS_MESSAGES, type Loss } from "./loss";

/**
 * The reason as it will be stored, or null when it may not be: one of the settings' list (in the
 * list's spelling), or the reason the lead already has — a reason since removed from the list
 * stays valid on the leads that carry it, so editing such a lead loses nothing.
 */
export async function acceptedLostReason(db: Database, leadId: string | null, reason: string): Promise<string | null> {
  const listed = (await loadLostReasons(db)).find((label) => reasonKey(label) === reasonKey(reason));
  if (listed) return listed;
  if (!leadId || !isUuid(leadId)) return null;
  const [lead] = await db.select({ reason: leads.lost_reason }).from(leads).where(eq(leads.id, leadId));
  return lead?.reason && reasonKey(lead.reason) === reasonKey(reason) ? lead.reason : null;
}

/**
 * The loss columns a write sets (decision 027): leaving 'perdido' clears the reason, the note and
 * the date (the timeline keeps what the reason was); becoming 'perdido' dates the loss now;
 * staying 'perdido' keeps the date and takes the reason and note given.
 */
export function lossColumns(before: LeadStatus | null, next: LeadStatus, loss: Loss | undefined) {
  if (next !== "perdido") return { lost_reason: null, lost_note: null, lost_at: null };
  const values = { lost_reason: loss?.lost_reason ?? null, lost_note: loss?.lost_note ?? null };
  return before === "perdido" ? values : { ...values, lost_at: new Date() };
}

/**
 * A parsed form's loss, ready to store: for 'perdido', the reason in its accepted spelling (or
 * the 400 message when it is not accepted); for any other status, nothing (it will be cleared).
 */
export async function resolveLoss(
  db: Database,
  leadId: string | null,
  values: { status: LeadStatus; lost_reason: string | null; lost_note?: string | null },
): Promise<{ ok: true; loss: Loss } | { ok: false; message: string }> {
  if (values.status !== "perdido") return { ok: true, loss: { lost_reason: null, lost_note: null } };
  if (!values.lost_reason) return { ok: false, message: LOSS_MESSAGES.reasonRequired };
  const reason = await acceptedLostReason(db, leadId, values.lost_reason);
  if (!reason) return { ok: false, message: LOSS_MESSAGES.reasonUnknown };
  return { ok: true, loss: { lost_reason: reason, lost_note: values.lost_note ?? null } };
}
