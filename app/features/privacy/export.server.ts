import type { Database } from "~/db/client.server";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { isUuid } from "~/lib/ids";
import { personCsv, personJson } from "./export-document.server";
import { loadAlertSubscriber } from "~/features/alerts/privacy.server";
import { loadPerson, type PersonData, personCounts, subscriberAsPerson } from "./person.server";
import { PRIVACY_MESSAGES } from "./schema";

/**
 * GET /crm/privacidade/exportar: the person's data as a download (export-document.server.ts says
 * what is in it, in Portuguese).
 */

export const EXPORT_FORMATS = ["json", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** A file name without personal data: the lead's short id and the day. */
export function exportFileName(person: PersonData, format: ExportFormat, now: Date): string {
  return `dados-titular-${person.anchorId.slice(0, 8)}-${now.toISOString().slice(0, 10)}.${format}`;
}

/**
 * GET /crm/privacidade/exportar?lead=<id>&formato=json|csv: the download, and an audit row
 * naming the lead ids and how many records went out (never their content). ?alerta=<id> instead
 * of ?lead: an 'Avise-me' subscriber with no lead (decision 025).
 */
export async function exportPersonResponse(db: Database, actor: AuditActor, url: URL, now = new Date()): Promise<Response> {
  const leadId = url.searchParams.get("lead") ?? "";
  const alertId = url.searchParams.get("alerta");
  const format = url.searchParams.get("formato") ?? "json";
  const text = (status: number, message: string) =>
    new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) return text(400, PRIVACY_MESSAGES.formatInvalid);
  const kind = format as ExportFormat;
  let person: PersonData;
  if (alertId !== null) {
    if (!isUuid(alertId)) return text(400, PRIVACY_MESSAGES.alertsNotFound);
    const subscriber = await loadAlertSubscriber(db, alertId);
    if (!subscriber) return text(404, PRIVACY_MESSAGES.alertsNotFound);
    person = await subscriberAsPerson(db, subscriber);
    await recordAudit(db, { actor, action: "privacy.export", entity: "listing_alert", entityId: alertId, details: { alerts: subscriber.alerts.length, counts: personCounts(person), format: kind } });
  } else {
    if (!isUuid(leadId)) return text(400, PRIVACY_MESSAGES.leadNotFound);
    const found = await loadPerson(db, leadId);
    if (!found) return text(404, PRIVACY_MESSAGES.leadNotFound);
    person = found;
    await recordAudit(db, {
      actor,
      action: "privacy.export",
      entity: "lead",
      entityId: leadId,
      details: { leadIds: person.leads.map((lead) => lead.id), counts: personCounts(person), format: kind },
    });
  }
  const body = kind === "json" ? personJson(person, now) : personCsv(person);
  return new Response(body, {
    headers: {
      "Content-Type": kind === "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(person, kind, now)}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
