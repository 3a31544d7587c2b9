import type { Database } from "~/db/client.server";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { csvField } from "~/lib/csv";
import { isUuid } from "~/lib/ids";
import { INTEREST_LABELS, LEAD_STATUS_LABELS, originLabel } from "~/features/leads/labels";
import { TYPE_LABELS } from "~/features/properties/labels";
import { loadPerson, type PersonData, personCounts } from "./person.server";
import { PRIVACY_MESSAGES } from "./schema";

/**
 * The person's data as files (LGPD art. 18, II and V: access and portability). JSON is the
 * complete, machine-readable copy. CSV is ONE file with a "tipo" column (lead, anotação/evento,
 * visita, e-mail): a person can open it in Excel without unzipping anything, and every kind shares
 * the columns that matter (data, lead, texto). UTF-8 with a BOM and ';' so that Excel in pt-BR
 * reads the accents and splits the columns.
 */

export const EXPORT_FORMATS = ["json", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function personJson(person: PersonData, generatedAt: Date): string {
  return JSON.stringify(
    {
      gerado_em: generatedAt.toISOString(),
      descricao: "Dados pessoais mantidos pelo corretor sobre o titular (LGPD, art. 18).",
      leads: person.leads.map(({ anonymized: _anonymized, ...lead }) => lead),
      anotacoes_e_historico: person.events,
      visitas: person.visits,
      emails: person.emails,
    },
    null,
    2,
  );
}

const CSV_COLUMNS = [
  "tipo",
  "id",
  "lead_id",
  "data",
  "nome",
  "telefone",
  "email",
  "interesse",
  "tipo_de_imovel",
  "origem",
  "status",
  "imovel",
  "responsavel",
  "destinatario",
  "assunto",
  "texto",
] as const;
type CsvRow = Partial<Record<(typeof CSV_COLUMNS)[number], string | null>>;

const EVENT_KIND_LABELS: Record<string, string> = {
  created: "lead criado",
  status: "mudança de status",
  note: "anotação",
  next_contact: "próximo contato",
};

const statusLabel = (value: string | null) => (value ? (LEAD_STATUS_LABELS as Record<string, string>)[value] ?? value : "");

export function personCsv(person: PersonData): string {
  const rows: CsvRow[] = [];
  for (const lead of person.leads) {
    rows.push({
      tipo: "lead",
      id: lead.id,
      lead_id: lead.id,
      data: lead.created_at,
      nome: lead.full_name,
      telefone: lead.phone,
      email: lead.email,
      interesse: INTEREST_LABELS[lead.interest_type],
      tipo_de_imovel: lead.property_type ? TYPE_LABELS[lead.property_type] : "",
      origem: originLabel(lead),
      status: statusLabel(lead.status),
      imovel: lead.property ? `${lead.property.codigo} - ${lead.property.title}` : "",
      texto: lead.notes,
    });
  }
  for (const event of person.events) {
    rows.push({
      tipo: EVENT_KIND_LABELS[event.kind] ?? event.kind,
      id: event.id,
      lead_id: event.lead_id,
      data: event.at,
      status: event.kind === "status" ? `${statusLabel(event.from_status)} → ${statusLabel(event.to_status)}` : statusLabel(event.to_status),
      responsavel: event.actor_name,
      texto: event.kind === "next_contact" ? event.next_contact_at : event.body,
    });
  }
  for (const visit of person.visits) {
    rows.push({
      tipo: "visita",
      id: visit.id,
      lead_id: visit.lead_id,
      data: visit.scheduled_at,
      status: visit.status,
      imovel: visit.property ? `${visit.property.codigo} - ${visit.property.title}` : "",
      responsavel: visit.created_by_name,
      texto: visit.notes,
    });
  }
  for (const mail of person.emails) {
    rows.push({
      tipo: "e-mail",
      id: mail.id,
      lead_id: mail.lead_id,
      data: mail.sent_at ?? mail.created_at,
      status: mail.status,
      destinatario: mail.to_address,
      assunto: mail.subject,
      texto: mail.text_body,
    });
  }
  const lines = [CSV_COLUMNS.join(";"), ...rows.map((row) => CSV_COLUMNS.map((column) => csvCell(row[column])).join(";"))];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/**
 * One CSV cell, through the CRM's one CSV writer (`~/lib/csv`): quoted when it needs it, and no
 * formula can start anywhere in it (the texts come from site visitors and portals).
 */
export function csvCell(value: string | null | undefined): string {
  return csvField(value);
}

/** A file name without personal data: the lead's short id and the day. */
export function exportFileName(person: PersonData, format: ExportFormat, now: Date): string {
  return `dados-titular-${person.anchorId.slice(0, 8)}-${now.toISOString().slice(0, 10)}.${format}`;
}

/**
 * GET /crm/privacidade/exportar?lead=<id>&formato=json|csv: the download, and an audit row
 * naming the lead ids and how many records went out (never their content).
 */
export async function exportPersonResponse(db: Database, actor: AuditActor, url: URL, now = new Date()): Promise<Response> {
  const leadId = url.searchParams.get("lead") ?? "";
  const format = url.searchParams.get("formato") ?? "json";
  const text = (status: number, message: string) =>
    new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) return text(400, PRIVACY_MESSAGES.formatInvalid);
  if (!isUuid(leadId)) return text(400, PRIVACY_MESSAGES.leadNotFound);
  const person = await loadPerson(db, leadId);
  if (!person) return text(404, PRIVACY_MESSAGES.leadNotFound);
  const kind = format as ExportFormat;
  await recordAudit(db, {
    actor,
    action: "privacy.export",
    entity: "lead",
    entityId: leadId,
    details: { leadIds: person.leads.map((lead) => lead.id), counts: personCounts(person), format: kind },
  });
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
