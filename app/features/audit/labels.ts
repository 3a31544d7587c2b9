import { LEAD_STATUS_LABELS } from "~/features/leads/labels";
import { VISIT_STATUS_LABELS } from "~/features/visits/labels";

/**
 * The words of the audit trail in Portuguese. Actions, fields and values not listed here (added
 * later by another feature) show their code, so nothing recorded is ever hidden from the admin.
 */

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "property.create": "Imóvel cadastrado",
  "property.update": "Imóvel editado",
  "property.delete": "Imóvel excluído",
  "property.featured": "Destaque alterado",
  "lead.create": "Lead cadastrado",
  "lead.update": "Lead editado",
  "lead.delete": "Lead excluído",
  "lead.note": "Anotação no lead",
  "lead.export": "Lista de leads exportada",
  "deal.export": "Relatório de negócios exportado",
  // Issue 23 (features/matching)
  "lead.profile_create": "Perfil de busca criado",
  "lead.profile_update": "Perfil de busca alterado",
  "lead.profile_delete": "Perfil de busca excluído",
  "lead.match_send": "Imóvel enviado ao lead",
  "visit.create": "Visita agendada",
  "visit.update": "Visita alterada",
  "user.role": "Acesso alterado",
  "user.invite": "Convite enviado",
  "user.invite_accept": "Convite aceito",
  "user.invite_revoke": "Convite revogado",
  "user.password": "Senha alterada",
  "user.password_reset": "Senha redefinida por email",
  "user.delete": "Conta excluída",
  "user.expire": "Contas não confirmadas apagadas",
  "auth.sign_in": "Entrou no CRM",
  "auth.sign_in_failed": "Entrada recusada",
  "auth.sign_in_throttled": "Tentativas bloqueadas",
  "auth.sign_in_locked": "Conta protegida contra tentativas",
  "calendar_feed.create": "Link da agenda no celular criado",
  "calendar_feed.revoke": "Link da agenda no celular desativado",
  "push_device.create": "Alertas no celular ativados em um aparelho",
  "push_device.delete": "Alertas no celular removidos de um aparelho",
  "push_preferences.update": "Preferências de alertas alteradas",
  "backup.download": "Cópia de segurança baixada",
  "backup.scheduled": "Cópia de segurança automática",
  "backup.restore": "Cópia de segurança restaurada",
  "settings.update": "Configurações alteradas",
  "privacy.export": "Dados pessoais exportados (LGPD)",
  "privacy.anonymize": "Dados pessoais anonimizados (LGPD)",
  "privacy.alerts_delete": "Alertas 'Avise-me' apagados (LGPD)",
  "privacy.retention": "Leads antigos anonimizados (prazo de guarda)",
  "privacy.retention_months": "Prazo de guarda alterado",
  // The neighbourhood pages (decision 021)
  "neighbourhood.text": "Texto do bairro alterado",
  "owner.create": "Proprietário cadastrado",
  "owner.update": "Proprietário editado",
  "owner.delete": "Proprietário excluído",
  "owner.link": "Imóvel vinculado ao proprietário",
  "owner.unlink": "Imóvel desvinculado do proprietário",
  "owner.export": "Dados do proprietário exportados (LGPD)",
  "owner.anonymize": "Dados do proprietário anonimizados (LGPD)",
  "owner.report": "Relatório enviado ao proprietário",
  "captacao.update": "Captação editada",
  "captacao.document": "Autorização (PDF) enviada",
  "captacao.document_delete": "Autorização (PDF) removida",
  // Proposals and deals (issue 24, decision 026)
  "proposal.create": "Proposta registrada",
  "proposal.offer": "Oferta ou contraproposta registrada",
  "proposal.accept": "Proposta aceita",
  "proposal.reject": "Proposta recusada",
  "proposal.expire": "Propostas vencidas marcadas como expiradas",
  "proposal.pdf": "Proposta (PDF) baixada",
  "deal.create": "Negócio fechado",
  "deal.undo": "Negócio desfeito",
  "deal.commission": "Comissão alterada",
};

/** Why a sign-in was refused (auth.sign_in_failed's reason). */
export const SIGN_IN_FAILURES: Record<string, string> = {
  wrong_password: "Entrada recusada: senha errada",
  unknown_account: "Entrada recusada: conta inexistente",
  unverified: "Entrada recusada: email não confirmado",
};

export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  property: "Imóvel",
  lead: "Lead",
  user: "Usuário",
  invitation: "Convite",
  backup: "Cópia de segurança",
  visit: "Visita",
  settings: "Configurações",
  neighbourhood: "Bairro",
  owner: "Proprietário",
  listing_alert: "Alerta 'Avise-me'",
  proposal: "Proposta",
  deal: "Negócio",
};

/** The settings' keys (settings/keys.ts, privacy's retention) as the settings page names them. */
export const SETTING_LABELS: Record<string, string> = {
  broker_profile: "Perfil do corretor",
  notification_emails: "Emails que recebem os novos leads",
  whatsapp_templates: "Mensagens prontas de WhatsApp",
  portal_feed_token: "Endereço do feed dos portais",
  portal_webhook_secret: "Senha do webhook dos portais",
  retention_months: "Prazo de guarda dos leads",
  deal_settings: "Negócios e comissões",
};

export const AUDIT_FIELD_LABELS: Record<string, string> = {
  // properties
  codigo: "código",
  title: "título",
  description: "descrição",
  type: "tipo",
  purpose: "finalidade",
  status: "status",
  featured: "destaque",
  price: "preço",
  area: "área",
  bedrooms: "quartos",
  bathrooms: "banheiros",
  parking_spaces: "vagas",
  neighborhood: "bairro",
  city: "cidade",
  state: "estado",
  broker_partner: "parceiro",
  images: "fotos",
  publish_to_portals: "publicar nos portais",
  street_address: "endereço",
  cep: "CEP",
  display_address: "exibir endereço",
  // leads
  full_name: "nome",
  phone: "telefone",
  email: "e-mail",
  interest_type: "interesse",
  property_type: "tipo de imóvel",
  origin: "origem",
  notes: "observações",
  next_contact_at: "próximo contato",
  // owners' captação (decision 024)
  document: "CPF/CNPJ",
  authorization_type: "tipo de autorização",
  starts_on: "início",
  ends_on: "término",
  commission: "comissão",
  keys_location: "local das chaves",
  report_opt_out: "não receber relatório",
  report_note: "nota do relatório",
  // visits
  scheduled_at: "data e hora",
  lead_id: "lead",
  property_id: "imóvel",
  // settings (the broker's profile)
  name: "nome",
  siteName: "nome do site",
  creci: "CRECI",
  whatsapp: "WhatsApp",
  address: "endereço",
  serviceArea: "área de atuação",
  instagramUrl: "Instagram",
  facebookUrl: "Facebook",
  bio: "texto 'Sobre'",
  portraitUrl: "foto",
  // counts and exports
  count: "quantidade",
  added: "incluídas",
  edited: "editadas",
  removed: "removidas",
  months: "prazo de guarda (meses)",
  days: "prazo (dias)",
  rows: "linhas",
  role: "acesso",
  // neighbourhood texts (0 = text removed)
  textLength: "tamanho do texto (caracteres)",
};

export const ROLE_LABELS: Record<string, string> = { admin: "Administrador", corretor: "Corretor" };

/** Why something ended without its owner's own click (access.server.ts, invitations.server.ts). */
export const REASON_LABELS: Record<string, string> = {
  sign_out: "a pessoa usou 'Sair' (todas as sessões)",
  password_reset: "senha redefinida por email",
  password_change: "senha trocada em 'Minha conta'",
  password_set: "nova senha definida (linha de comando ou administrador inicial)",
  inviter_not_admin: "quem convidou deixou de ser administrador",
  inviter_deleted: "a conta de quem convidou foi excluída",
};

export const SOURCE_LABELS: Record<string, string> = {
  ADMIN_EMAIL: "configuração ADMIN_EMAIL",
  default: "primeiro início",
  cli: "linha de comando (CLI)",
};

export const LIMIT_LABELS: Record<string, string> = {
  pair: "5 tentativas da mesma conta neste endereço em 15 minutos",
  address: "20 tentativas deste endereço em 15 minutos",
};

export const FORMAT_LABELS: Record<string, string> = { csv: "CSV", xlsx: "planilha XLSX", json: "JSON" };

/** The kinds counted in a person's data (privacy exports and anonymisations). */
export const COUNT_LABELS: Record<string, [string, string]> = {
  leads: ["lead", "leads"],
  events: ["evento da linha do tempo", "eventos da linha do tempo"],
  visits: ["visita", "visitas"],
  emails: ["email", "emails"],
};

/** A status value in the words of its record's kind. */
export function statusLabel(entity: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "todos";
  const labels: Record<string, string> = entity === "visit" ? VISIT_STATUS_LABELS : LEAD_STATUS_LABELS;
  return labels[String(value)] ?? String(value);
}

export const actionLabel = (action: string, details?: Record<string, unknown> | null) =>
  (action === "auth.sign_in_failed" && typeof details?.reason === "string" && SIGN_IN_FAILURES[details.reason]) ||
  AUDIT_ACTION_LABELS[action] ||
  action;
export const entityLabel = (entity: string) => AUDIT_ENTITY_LABELS[entity] ?? entity;
export const fieldLabel = (field: string) => AUDIT_FIELD_LABELS[field] ?? field;
export const roleLabel = (value: unknown) => (typeof value === "string" ? (ROLE_LABELS[value] ?? value) : "sem acesso");
