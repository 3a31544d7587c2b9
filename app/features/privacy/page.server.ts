import { data, redirect } from "react-router";
import type { Database } from "~/db/client.server";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { type AlertSubscriber, deleteAlertSubscriber, findAlertByContact, loadAlertSubscriber } from "~/features/alerts/privacy.server";
import { isUuid } from "~/lib/ids";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { anonymizeLeads } from "./anonymize.server";
import { RETENTION_MONTHS } from "./markers";
import { findAnchorLead, loadPerson, type PersonData, personLeadIds } from "./person.server";
import { countExpiredLeads, loadRetentionMonths, saveRetentionMonths } from "./retention.server";
import { PRIVACY_MESSAGES, parsePersonQuery, retentionSchema } from "./schema";

/** /crm/privacidade: what the page shows and what its forms do (admins only; the route checks). */

export type PrivacyPageData = {
  person: PersonData | null;
  /** ?lead= named a lead that does not exist. */
  leadNotFound: boolean;
  /** ?alerta=<id>: an 'Avise-me' subscriber with no lead (decision 025), or null. */
  subscriber: AlertSubscriber | null;
  /** ?alerta= named no alert (erased, or never there). */
  subscriberNotFound: boolean;
  retention: { months: number; min: number; max: number; expired: number };
};

export async function loadPrivacyPage(db: Database, url: URL) {
  const leadParam = url.searchParams.get("lead");
  const alertParam = url.searchParams.get("alerta");
  const [person, subscriber, months, expired] = await Promise.all([
    leadParam && isUuid(leadParam) ? loadPerson(db, leadParam) : Promise.resolve(null),
    alertParam ? loadAlertSubscriber(db, alertParam) : Promise.resolve(null),
    loadRetentionMonths(db),
    countExpiredLeads(db),
  ]);
  const page: PrivacyPageData = {
    person,
    leadNotFound: leadParam !== null && !person,
    subscriber,
    subscriberNotFound: alertParam !== null && !subscriber,
    retention: { months, min: RETENTION_MONTHS.min, max: RETENTION_MONTHS.max, expired },
  };
  return page.leadNotFound || page.subscriberNotFound ? data(page, { status: 404 }) : page;
}

export type PrivacyAnswer = { ok: boolean; message: string; intent?: string };

const answer = (status: number, message: string, intent: string) => data<PrivacyAnswer>({ ok: false, message, intent }, { status });

const listOf = (value: unknown): string[] | null => {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  return null;
};

export async function handlePrivacyAction(db: Database, actor: AuditActor, body: Record<string, unknown>) {
  const intent = typeof body.intent === "string" ? body.intent : "";

  if (intent === "search") {
    const parsed = parsePersonQuery(body.q);
    if (!parsed.ok) return answer(400, parsed.message, intent);
    const anchor = await findAnchorLead(db, parsed.query);
    if (!anchor) {
      // No lead: maybe an 'Avise-me' subscriber who gave only an e-mail (decision 025).
      const alert = await findAlertByContact(db, parsed.query);
      return alert ? redirect(`/crm/privacidade?alerta=${alert}`) : answer(404, PRIVACY_MESSAGES.notFound, intent);
    }
    // The lead id goes in the address, never the phone or e-mail (history, logs, Referer).
    return redirect(`/crm/privacidade?lead=${anchor}`);
  }

  if (intent === "anonymize") {
    const anchorId = typeof body.lead === "string" ? body.lead : "";
    const shown = listOf(body.leadIds);
    if (!isUuid(anchorId) || !shown || shown.length === 0 || shown.length > 1000 || !shown.every(isUuid)) {
      return answer(400, PRIVACY_MESSAGES.leadNotFound, intent);
    }
    const person = await loadPerson(db, anchorId);
    if (!person) return answer(404, PRIVACY_MESSAGES.leadNotFound, intent);
    if (person.leads.every((lead) => lead.anonymized)) return answer(409, PRIVACY_MESSAGES.alreadyAnonymized, intent);
    // Exactly the leads the admin confirmed: if a lead of this person arrived (or changed) since
    // the page opened, the admin looks again instead of erasing more or fewer than they saw.
    const current = await personLeadIds(db, anchorId);
    if (current.length !== shown.length || !current.every((id) => shown.includes(id))) return answer(409, PRIVACY_MESSAGES.changed, intent);
    try {
      const counts = await anonymizeLeads(db, actor, anchorId, current);
      return { ok: true, message: PRIVACY_MESSAGES.anonymized(counts.leads), intent } satisfies PrivacyAnswer;
    } catch (error) {
      logger("privacy").error({ ...errorFields(error) }, "anonymisation failed");
      return answer(500, PRIVACY_MESSAGES.anonymizeFailed, intent);
    }
  }

  if (intent === "delete-alerts") {
    const alertId = typeof body.alerta === "string" ? body.alerta : "";
    if (!isUuid(alertId)) return answer(400, PRIVACY_MESSAGES.alertsNotFound, intent);
    const deleted = await db.transaction(async (tx) => {
      const count = await deleteAlertSubscriber(tx, alertId);
      if (count > 0) await recordAudit(tx, { actor, action: "privacy.alerts_delete", entity: "listing_alert", entityId: alertId, details: { alerts: count } });
      return count;
    });
    if (deleted === 0) return answer(404, PRIVACY_MESSAGES.alertsNotFound, intent);
    return { ok: true, message: PRIVACY_MESSAGES.alertsDeleted(deleted), intent } satisfies PrivacyAnswer;
  }

  if (intent === "retention") {
    const parsed = retentionSchema.safeParse({ months: body.months });
    if (!parsed.success) return answer(400, firstIssueMessage(parsed.error), intent);
    await saveRetentionMonths(db, actor, parsed.data.months);
    return { ok: true, message: PRIVACY_MESSAGES.retentionSaved, intent } satisfies PrivacyAnswer;
  }

  return answer(400, PRIVACY_MESSAGES.unknownIntent, intent);
}
