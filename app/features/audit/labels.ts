/**
 * How the audit trail reads in Portuguese. Actions and fields not listed here (added later by
 * another feature) show their code, so nothing recorded is ever hidden from the admin.
 */

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  "property.create": "Imóvel cadastrado",
  "property.update": "Imóvel editado",
  "property.delete": "Imóvel excluído",
  "property.featured": "Destaque alterado",
  "lead.create": "Lead cadastrado",
  "lead.update": "Lead editado",
  "lead.delete": "Lead excluído",
  "user.role": "Acesso alterado",
  "user.invite": "Convite enviado",
  "user.invite_accept": "Convite aceito",
  "user.password": "Senha alterada",
  "user.password_reset": "Senha redefinida",
  "user.delete": "Usuário excluído",
  "backup.download": "Cópia de segurança baixada",
  "backup.scheduled": "Cópia de segurança automática",
  "backup.restore": "Cópia de segurança restaurada",
  "lead.note": "Anotação no lead",
  "lead.export": "Lista de leads exportada",
  "visit.create": "Visita agendada",
  "visit.update": "Visita alterada",
  "calendar_feed.create": "Link da agenda no celular criado",
  "calendar_feed.revoke": "Link da agenda no celular desativado",
  "settings.update": "Configurações alteradas",
  "privacy.export": "Dados pessoais exportados (LGPD)",
  "privacy.anonymize": "Dados pessoais anonimizados (LGPD)",
  "privacy.retention": "Leads antigos anonimizados (prazo de guarda)",
  "privacy.retention_months": "Prazo de guarda alterado",
};

export const AUDIT_ENTITY_LABELS: Record<string, string> = {
  property: "Imóvel",
  lead: "Lead",
  user: "Usuário",
  invitation: "Convite",
  backup: "Cópia de segurança",
  visit: "Visita",
  settings: "Configurações",
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
  // leads
  full_name: "nome",
  phone: "telefone",
  email: "e-mail",
  interest_type: "interesse",
  property_type: "tipo de imóvel",
  origin: "origem",
  notes: "observações",
  next_contact_at: "próximo contato",
  // visits
  scheduled_at: "data e hora",
  lead_id: "lead",
  property_id: "imóvel",
  // users
  role: "acesso",
  source: "origem",
  // settings (the broker's profile and the rest)
  key: "configuração",
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
  count: "quantidade",
  added: "incluídos",
  edited: "editados",
  removed: "removidos",
  months: "meses",
  // the portals' keys (issue 13): "gerada" (random) or "manual"
  method: "forma",
  // exports and the person's rights
  format: "formato",
  rows: "linhas",
  search: "com busca",
  period: "período",
  leadIds: "leads",
  counts: "registros",
};

const SOURCE_LABELS: Record<string, string> = { ADMIN_EMAIL: "configuração ADMIN_EMAIL", default: "primeiro início" };

const ROLE_LABELS: Record<string, string> = { admin: "Administrador", corretor: "Corretor" };

export const actionLabel = (action: string) => AUDIT_ACTION_LABELS[action] ?? action;
export const entityLabel = (entity: string) => AUDIT_ENTITY_LABELS[entity] ?? entity;
const fieldLabel = (field: string) => AUDIT_FIELD_LABELS[field] ?? field;

function plain(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "sim" : "não";
  if (Array.isArray(value)) return value.map(plain).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * The record an entry is about, as a person reads it: "Imóvel AP-PN-101", "Lead Maria Silva"
 * (the record's current name, when it still exists), "Lead 3f2a9c1b" (when it does not).
 */
export function describeRecord(
  entity: string,
  entityId: string | null,
  details: Record<string, unknown> | null,
  currentName?: string,
): string {
  const name = entityLabel(entity);
  if (typeof details?.codigo === "string") return `${name} ${details.codigo}`;
  if (currentName) return `${name} ${currentName}`;
  if (entityId) return `${name} ${entityId.slice(0, 8)}`;
  return name;
}

const roleLabel = (value: unknown) => (typeof value === "string" ? (ROLE_LABELS[value] ?? value) : "sem acesso");

/** The details as short Portuguese lines; the code is already part of the record's name. */
export function describeDetails(details: Record<string, unknown> | null): string[] {
  if (!details) return [];
  const lines: string[] = [];
  if ("from" in details || "to" in details) lines.push(`Acesso: ${roleLabel(details.from)} → ${roleLabel(details.to)}`);
  for (const [key, value] of Object.entries(details)) {
    if (key === "codigo" || key === "from" || key === "to") continue;
    if (key === "fields" && Array.isArray(value)) {
      lines.push(value.length === 0 ? "Nenhum campo mudou" : `Campos alterados: ${value.map((field) => fieldLabel(String(field))).join(", ")}`);
    } else if (key === "featured") {
      lines.push(value ? "Marcado como destaque" : "Destaque removido");
    } else if (key === "role") {
      lines.push(`Acesso: ${roleLabel(value)}`);
    } else if (key === "source" && typeof value === "string") {
      lines.push(`Origem: ${SOURCE_LABELS[value] ?? value}`);
    } else {
      lines.push(`${fieldLabel(key)}: ${plain(value)}`);
    }
  }
  return lines;
}
