import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { lead_events, lead_profiles, leads, outbox, push_messages, visits } from "~/db/schema";
import { type AuditActor, recordAudit, type Tx } from "~/features/audit/audit.server";
import { ANONYMIZED } from "./markers";
import { deletePersonAlerts } from "~/features/alerts/privacy.server";
import { personMailIds } from "./person-mail.server";
import { anonymizePersonProposals } from "~/features/deals/privacy.server";

export type AnonymizeCounts = { leads: number; events: number; visits: number; emails: number };

/**
 * Replaces a person's name, phone, e-mail and every free text about them with the markers, in
 * the leads, their timeline, their visits and the e-mails about them (linked to the leads, or
 * naming their e-mail or phone: person-mail.server.ts) — keeping every row with
 * its status, origin, property and dates, so the reports count the same before and after.
 * Runs inside the caller's transaction; the audit row says who, when and which lead ids, never
 * a value (the trail outlives the data).
 */
export async function anonymizeLeadsInTx(
  tx: Tx,
  actor: AuditActor,
  ids: string[],
  reason: { action: "privacy.anonymize"; anchorId: string } | { action: "privacy.retention"; months: number },
): Promise<AnonymizeCounts> {
  if (ids.length === 0) return { leads: 0, events: 0, visits: 0, emails: 0 };
  // Lock the rows first, so that an edit of one of these leads made meanwhile waits for the end.
  await tx.select({ id: leads.id }).from(leads).where(inArray(leads.id, ids)).for("update");
  // Found while the leads still hold their phones and e-mails: the messages naming them go too.
  const mailIds = await personMailIds(tx, ids);
  // Issue 23, item 6: the person's 'Avise-me' alerts go (found by the contacts the leads still hold).
  await deletePersonAlerts(tx, ids);
  // Issue 24: what the person offered in their proposals (features/deals/privacy.server.ts).
  await anonymizePersonProposals(tx, ids);
  const leadRows = await tx
    .update(leads)
    .set({
      full_name: ANONYMIZED.name,
      phone: ANONYMIZED.phone,
      email: null,
      notes: sql`case when ${leads.notes} is null then null else ${ANONYMIZED.text} end`,
      // Issue 24: the loss's note is free text about the person; its reason (a label from the list) stays for the reports.
      lost_note: sql`case when ${leads.lost_note} is null then null else ${ANONYMIZED.text} end`,
      next_contact_at: null,
      // The days a person said they were free (issue 25) go with them.
      visit_preferences: null,
    })
    .where(inArray(leads.id, ids))
    .returning({ id: leads.id });
  const eventRows = await tx
    .update(lead_events)
    .set({ body: ANONYMIZED.text })
    .where(and(inArray(lead_events.lead_id, ids), isNotNull(lead_events.body)))
    .returning({ id: lead_events.id });
  // Issue 25: pushes name the lead's first name; waiting or sent, they go.
  await tx.delete(push_messages).where(inArray(push_messages.lead_id, ids));
  // Issue 23: what the person looked for is personal data too; the listings sent stay (no content).
  await tx.delete(lead_profiles).where(inArray(lead_profiles.lead_id, ids));
  const visitRows = await tx
    .update(visits)
    .set({ notes: ANONYMIZED.text })
    .where(and(inArray(visits.lead_id, ids), isNotNull(visits.notes)))
    .returning({ id: visits.id });
  // A message still waiting is not sent any more (its content is gone); sent ones keep "sent".
  const emailRows =
    mailIds.length === 0
      ? []
      : await tx
          .update(outbox)
          .set({
            to_address: ANONYMIZED.emailAddress,
            reply_to: null,
            subject: ANONYMIZED.emailSubject,
            text_body: ANONYMIZED.text,
            html_body: null,
            link_token: null,
            ics_attachment: null,
            last_error: sql`case when ${outbox.status} = 'pending' then ${ANONYMIZED.cancelledMail} else null end`,
            status: sql`case when ${outbox.status} = 'pending' then 'failed' else ${outbox.status} end`,
            locked_until: null,
          })
          .where(inArray(outbox.id, mailIds))
          .returning({ id: outbox.id });
  const counts = { leads: leadRows.length, events: eventRows.length, visits: visitRows.length, emails: emailRows.length };
  await recordAudit(tx, {
    actor,
    action: reason.action,
    entity: "lead",
    entityId: reason.action === "privacy.anonymize" ? reason.anchorId : null,
    details: { leadIds: leadRows.map((row) => row.id), counts, ...(reason.action === "privacy.retention" ? { months: reason.months } : {}) },
  });
  return counts;
}

/** An admin's request: anonymise these leads, all or nothing. */
export async function anonymizeLeads(db: Database, actor: AuditActor, anchorId: string, ids: string[]): Promise<AnonymizeCounts> {
  return db.transaction((tx) => anonymizeLeadsInTx(tx, actor, ids, { action: "privacy.anonymize", anchorId }));
}

/** Whether a lead carries the marker already (so a second request changes nothing). */
export async function isLeadAnonymized(db: Database, id: string): Promise<boolean> {
  const [row] = await db.select({ phone: leads.phone, full_name: leads.full_name }).from(leads).where(eq(leads.id, id));
  return row?.phone === ANONYMIZED.phone && row.full_name === ANONYMIZED.name;
}
