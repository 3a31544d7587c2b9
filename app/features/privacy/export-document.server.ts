import { csvField } from "~/lib/csv";
import { INTEREST_LABELS, LEAD_STATUS_LABELS, originLabel } from "~/features/leads/labels";
import { mailKindLabel } from "~/features/mail/labels";
import { LINK_TOKEN_PLACEHOLDER } from "~/features/mail/sealed-link.server";
import { TYPE_LABELS } from "~/features/properties/labels";
import { formatDateTime } from "~/lib/format";
import { preferenceLabel, type VisitPreference } from "~/features/leads/visit-preferences";
import type { PersonData, PersonEmail, PersonEvent, PersonLead, PersonVisit } from "./person.server";

/**
 * The person's data as they read it (LGPD art. 18, II and V: access and portability): every key
 * and every value in Portuguese, codes turned into the labels the CRM shows, dates and times as
 * "dd/mm/aaaa, hh:mm" in the broker's time zone. JSON is the complete, machine-readable copy;
 * CSV is ONE file with a "tipo" column, which a person opens in Excel without unzipping anything
 * (UTF-8 with a BOM and ';', so that Excel in pt-BR reads the accents and splits the columns).
 */

const EVENT_KIND_LABELS: Record<string, string> = {
  created: "Lead criado",
  status: "Mudança de situação",
  note: "Anotação",
  next_contact: "Próximo contato",
};
const VISIT_STATUS_LABELS: Record<string, string> = { agendada: "Agendada", realizada: "Realizada", cancelada: "Cancelada" };
const MAIL_STATUS_LABELS: Record<string, string> = { pending: "na fila", sent: "enviado", failed: "não enviado" };

const when = (value: string | null) => (value ? formatDateTime(value) : null);
const leadStatus = (value: string | null) => (value ? ((LEAD_STATUS_LABELS as Record<string, string>)[value] ?? value) : null);
const propertyOf = (property: { codigo: string; title: string } | null) => (property ? { codigo: property.codigo, titulo: property.title } : null);
/** An account e-mail's stored link has a placeholder where its token went: say so in words. */
const mailText = (text: string) => text.split(LINK_TOKEN_PLACEHOLDER).join("(removido)");

function leadDocument(lead: PersonLead) {
  return {
    id: lead.id,
    nome_completo: lead.full_name,
    telefone: lead.phone,
    email: lead.email,
    interesse: INTEREST_LABELS[lead.interest_type],
    tipo_de_imovel: lead.property_type ? TYPE_LABELS[lead.property_type] : null,
    origem: originLabel(lead),
    situacao: leadStatus(lead.status),
    observacoes: lead.notes,
    criado_em: when(lead.created_at),
    proximo_contato: when(lead.next_contact_at),
    imovel: propertyOf(lead.property),
    portal: lead.portal_name ?? null,
    temperatura: lead.portal_temperature ?? null,
    motivo_da_perda: lead.lost_reason ?? null,
    observacao_da_perda: lead.lost_note ?? null,
    perdido_em: when(lead.lost_at ?? null),
    dias_preferidos_para_visita: lead.visit_preferences ? lead.visit_preferences.map((p) => preferenceLabel(p as VisitPreference)) : [],
  };
}

function eventDocument(event: PersonEvent) {
  return {
    id: event.id,
    id_do_lead: event.lead_id,
    tipo: EVENT_KIND_LABELS[event.kind] ?? event.kind,
    data: when(event.at),
    responsavel: event.actor_name,
    situacao_anterior: leadStatus(event.from_status),
    situacao_nova: leadStatus(event.to_status),
    texto: event.body,
    proximo_contato: when(event.next_contact_at),
    motivo_da_perda: event.lost_reason ?? null,
  };
}

function visitDocument(visit: PersonVisit) {
  return {
    id: visit.id,
    id_do_lead: visit.lead_id,
    data: when(visit.scheduled_at),
    situacao: VISIT_STATUS_LABELS[visit.status] ?? visit.status,
    observacoes: visit.notes,
    imovel: propertyOf(visit.property),
    agendada_por: visit.created_by_name,
    criada_em: when(visit.created_at),
  };
}

function emailDocument(mail: PersonEmail) {
  return {
    id: mail.id,
    id_do_lead: mail.lead_id,
    tipo: mailKindLabel(mail.kind),
    destinatario: mail.to_address,
    responder_para: mail.reply_to,
    assunto: mail.subject,
    texto: mailText(mail.text_body),
    situacao: MAIL_STATUS_LABELS[mail.status] ?? mail.status,
    criado_em: when(mail.created_at),
    enviado_em: when(mail.sent_at),
  };
}

export function personJson(person: PersonData, generatedAt: Date): string {
  return JSON.stringify(
    {
      gerado_em: formatDateTime(generatedAt),
      fuso_horario: "Datas e horas no horário de Fortaleza (UTC−3).",
      descricao: "Dados pessoais mantidos pelo corretor sobre o titular (LGPD, art. 18).",
      leads: person.leads.map(leadDocument),
      anotacoes_e_historico: person.events.map(eventDocument),
      visitas: person.visits.map(visitDocument),
      emails: person.emails.map(emailDocument),
      perfis_de_busca: (person.profiles ?? []).map((profile) => ({ id: profile.id, id_do_lead: profile.lead_id, perfil: profile.summary, criado_em: when(profile.created_at), atualizado_em: when(profile.updated_at) })),
      imoveis_enviados: (person.matchesSent ?? []).map((sent) => ({
        id: sent.id,
        id_do_lead: sent.lead_id,
        imovel: `${sent.property.codigo} - ${sent.property.title}`,
        canal: sent.channel === "email" ? "E-mail" : "WhatsApp",
        enviado_em: when(sent.sent_at),
        enviado_por: sent.actor_name,
      })),
      alertas_avise_me: (person.alerts ?? []).map((alert) => ({
        id: alert.id,
        email: alert.email,
        whatsapp: alert.phone,
        busca: alert.search,
        situacao: alert.status,
        criado_em: when(alert.created_at),
        confirmado_em: alert.confirmed_at ? when(alert.confirmed_at) : null,
        ultimo_envio_em: alert.last_sent_at ? when(alert.last_sent_at) : null,
      })),
      propostas: (person.proposals ?? []).map(({ lead_id, ...proposal }) => ({ id_do_lead: lead_id, ...proposal })),
    },
    null,
    2,
  );
}

const CSV_COLUMNS = [
  "tipo",
  "id",
  "id_do_lead",
  "data",
  "nome",
  "telefone",
  "email",
  "interesse",
  "tipo_de_imovel",
  "origem",
  "situacao",
  "imovel",
  "responsavel",
  "destinatario",
  "assunto",
  "texto",
] as const;
type CsvRow = Partial<Record<(typeof CSV_COLUMNS)[number], string | null>>;

const propertyText = (property: { codigo: string; titulo: string } | null) => (property ? `${property.codigo} - ${property.titulo}` : "");

export function personCsv(person: PersonData): string {
  const rows: CsvRow[] = [];
  for (const lead of person.leads.map(leadDocument)) {
    rows.push({
      tipo: "Lead",
      id: lead.id,
      id_do_lead: lead.id,
      data: lead.criado_em,
      nome: lead.nome_completo,
      telefone: lead.telefone,
      email: lead.email,
      interesse: lead.interesse,
      tipo_de_imovel: lead.tipo_de_imovel,
      origem: lead.origem,
      situacao: lead.situacao,
      imovel: propertyText(lead.imovel),
      texto: [
        lead.observacoes,
        lead.motivo_da_perda ? `Motivo da perda: ${lead.motivo_da_perda}` : null,
        lead.observacao_da_perda ? `Observação da perda: ${lead.observacao_da_perda}` : null,
        lead.dias_preferidos_para_visita.length > 0 ? `Dias preferidos: ${lead.dias_preferidos_para_visita.join("; ")}` : null,
      ]
        .filter(Boolean)
        .join(" | ") || null,
    });
  }
  for (const event of person.events.map(eventDocument)) {
    rows.push({
      tipo: event.tipo,
      id: event.id,
      id_do_lead: event.id_do_lead,
      data: event.data,
      situacao: event.situacao_anterior && event.situacao_nova ? `${event.situacao_anterior} → ${event.situacao_nova}` : event.situacao_nova,
      responsavel: event.responsavel,
      texto:
        event.tipo === EVENT_KIND_LABELS.next_contact
          ? event.proximo_contato
          : [event.motivo_da_perda ? `Motivo da perda: ${event.motivo_da_perda}` : null, event.texto].filter(Boolean).join(" | ") || null,
    });
  }
  for (const visit of person.visits.map(visitDocument)) {
    rows.push({
      tipo: "Visita",
      id: visit.id,
      id_do_lead: visit.id_do_lead,
      data: visit.data,
      situacao: visit.situacao,
      imovel: propertyText(visit.imovel),
      responsavel: visit.agendada_por,
      texto: visit.observacoes,
    });
  }
  for (const mail of person.emails.map(emailDocument)) {
    rows.push({
      tipo: "E-mail",
      id: mail.id,
      id_do_lead: mail.id_do_lead,
      data: mail.enviado_em ?? mail.criado_em,
      situacao: mail.situacao,
      destinatario: mail.destinatario,
      assunto: mail.assunto,
      texto: mail.texto,
    });
  }
  for (const alert of person.alerts ?? []) {
    rows.push({ tipo: "Alerta 'Avise-me'", id: alert.id, data: when(alert.created_at), texto: `${alert.search} (${alert.status}; ${alert.email}${alert.phone ? `, ${alert.phone}` : ""})` });
  }
  for (const proposal of person.proposals ?? []) {
    const offers = proposal.ofertas.map((offer) => `${offer.em} ${offer.quem}: ${offer.valor ?? "(removido)"}`).join(" | ");
    rows.push({
      tipo: "Proposta",
      id: proposal.id,
      id_do_lead: proposal.lead_id,
      data: proposal.criada_em,
      situacao: proposal.situacao,
      imovel: proposal.imovel,
      texto: [`${proposal.tipo}: ${proposal.valor ?? "(removido)"}`, ...proposal.pagamento, proposal.condicoes, `Ofertas: ${offers}`].filter(Boolean).join(" · "),
    });
  }
  for (const profile of person.profiles ?? []) {
    rows.push({ tipo: "Perfil de busca", id: profile.id, id_do_lead: profile.lead_id, data: when(profile.created_at), texto: profile.summary });
  }
  for (const sent of person.matchesSent ?? []) {
    rows.push({ tipo: "Imóvel enviado", id: sent.id, id_do_lead: sent.lead_id, data: when(sent.sent_at), imovel: `${sent.property.codigo} - ${sent.property.title}`, responsavel: sent.actor_name, texto: sent.channel === "email" ? "E-mail" : "WhatsApp" });
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
