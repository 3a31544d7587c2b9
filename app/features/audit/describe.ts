import { formatDate } from "~/lib/format";
import {
  actionLabel,
  COUNT_LABELS,
  entityLabel,
  fieldLabel,
  FORMAT_LABELS,
  LIMIT_LABELS,
  REASON_LABELS,
  roleLabel,
  SETTING_LABELS,
  SOURCE_LABELS,
  statusLabel,
} from "./labels";

/**
 * One audit row as a person reads it: who, did what, to which record, and the details, every part
 * a Portuguese sentence. The trail stores ids (and no personal values); what they are called is
 * read at display time (names.server.ts), and a record deleted since says so.
 */

/** A row of audit_log as stored. */
export type StoredEntry = {
  action: string;
  entity: string;
  entity_id: string | null;
  actor_id: string | null;
  actor_email: string | null;
  details: unknown;
};

/** What ids are called today: records by "entity:id", people by user id. */
export type Names = {
  records: Map<string, string>;
  people: Map<string, { name: string; email: string }>;
};

export type DescribedEntry = { actor: string; actorNote: string | null; action: string; record: string; details: string[] };

const DELETED: Record<string, string> = { visit: "excluída", user: "conta excluída", invitation: "excluído" };

export function describeEntry(entry: StoredEntry, names: Names): DescribedEntry {
  const details = asObject(entry.details);
  return {
    ...describeActor(entry, details, names),
    action: actionLabel(entry.action, details),
    record: describeRecord(entry.entity, entry.entity_id, details, names),
    details: describeDetails(entry.entity, details, names),
  };
}

function describeActor(entry: StoredEntry, details: Record<string, unknown>, names: Names): { actor: string; actorNote: string | null } {
  if (entry.action.startsWith("auth.")) {
    // A sign-in is the account's own; a refusal may be anyone's, known only by the address.
    const owner = entry.entity_id ? names.people.get(entry.entity_id) : undefined;
    if (entry.action === "auth.sign_in") return owner ? { actor: owner.name, actorNote: owner.email } : { actor: "Conta excluída", actorNote: null };
    return { actor: "Visitante", actorNote: null };
  }
  if (!entry.actor_id) return { actor: "Sistema", actorNote: null };
  const person = names.people.get(entry.actor_id);
  if (person) return { actor: person.name, actorNote: person.email };
  return { actor: entry.actor_email ?? "Conta excluída", actorNote: "conta excluída" };
}

/** "Imóvel AP-PN-101 — Casa em Ponta Negra", "Lead Maria Silva", "Visita (excluída)". */
export function describeRecord(entity: string, id: string | null, details: Record<string, unknown>, names: Names): string {
  const label = entityLabel(entity);
  if (entity === "settings") {
    const key = String(id ?? details.key ?? "");
    return key ? `Configuração: ${SETTING_LABELS[key] ?? key}` : label;
  }
  if (entity === "backup") return label;
  // A neighbourhood is no row of its own: its name as the listings spelled it when the text was saved.
  if (entity === "neighbourhood") return `${label} ${typeof details.name === "string" ? details.name : (id ?? "")}`.trim();
  const current = id ? names.records.get(`${entity}:${id}`) : undefined;
  if (current) return entity === "invitation" ? `Convite para ${current}` : `${label} ${current}`;
  const codigo = typeof details.codigo === "string" ? details.codigo : null;
  if (!id) {
    if (entity === "user" && typeof details.email === "string") return `Conta inexistente (${details.email})`;
    if (codigo) return `${label} ${codigo}`;
    return { lead: "Leads", user: "Contas de usuário", property: "Imóveis" }[entity] ?? label;
  }
  return `${label}${codigo ? ` ${codigo}` : ""} (${DELETED[entity] ?? "excluído"})`;
}

/** The details as short Portuguese lines, values in words; a record's name is already shown. */
export function describeDetails(entity: string, details: Record<string, unknown>, names: Names): string[] {
  const lines: string[] = [];
  if ("from" in details || "to" in details) lines.push(`Acesso: ${roleLabel(details.from)} → ${roleLabel(details.to)}`);
  for (const [key, value] of Object.entries(details)) {
    if (["codigo", "from", "to", "key", "email"].includes(key)) continue;
    if (entity === "neighbourhood" && key === "name") continue;
    const line = detailLine(entity, key, value, names);
    if (line) lines.push(line);
  }
  return lines;
}

function detailLine(entity: string, key: string, value: unknown, names: Names): string | null {
  switch (key) {
    case "fields":
      if (!Array.isArray(value)) break;
      return value.length === 0 ? "Nenhum campo mudou" : `Campos alterados: ${value.map((field) => fieldLabel(String(field))).join(", ")}`;
    case "featured":
      return value ? "Marcado como destaque" : "Destaque removido";
    case "role":
      return entity === "user" ? `Acesso que tinha: ${roleLabel(value)}` : `Acesso: ${roleLabel(value)}`;
    case "source":
      return `Origem: ${SOURCE_LABELS[String(value)] ?? plain(value)}`;
    case "reason":
      return typeof value === "string" && REASON_LABELS[value] ? `Motivo: ${REASON_LABELS[value]}` : null;
    case "ip":
      return `Endereço: ${plain(value)}`;
    case "limit":
      return `Limite atingido: ${LIMIT_LABELS[String(value)] ?? plain(value)}`;
    case "status":
      return `Status: ${statusLabel(entity, value)}`;
    case "format":
      return `Formato: ${FORMAT_LABELS[String(value)] ?? plain(value)}`;
    case "search":
      return value ? "Com busca por texto" : null;
    case "commissions":
      // The deals' report download (issue 24): whether its commission columns were in it.
      return value ? "Com as comissões" : "Sem as comissões";
    case "period":
      return periodLine(value);
    case "method":
      return `Forma: ${value === "manual" ? "digitada pelo administrador" : value === "generated" ? "gerada automaticamente" : plain(value)}`;
    case "leadIds":
      return Array.isArray(value) ? leadsLine(value.map(String), names) : null;
    case "counts":
      return countsLine(value);
    case "count":
      if (entity === "user") return `Contas apagadas: ${plain(value)}`;
      return entity === "settings" ? `Endereços na lista: ${plain(value)}` : `Quantidade: ${plain(value)}`;
  }
  return `${capitalize(fieldLabel(key))}: ${plain(value)}`;
}

function periodLine(value: unknown): string {
  const period = asObject(value);
  const day = (text: unknown) => (typeof text === "string" && /^\d{4}-\d{2}-\d{2}$/.test(text) ? formatDate(`${text}T12:00:00Z`) : plain(text));
  return "from" in period ? `Período: ${day(period.from)} a ${day(period.to)}` : "Período: todos";
}

/** The leads' current names (anonymised ones show the marker), at most five, then how many more. */
function leadsLine(ids: string[], names: Names): string {
  const known = ids.map((id) => names.records.get(`lead:${id}`)).filter((name): name is string => Boolean(name));
  const gone = ids.length - known.length;
  const parts = known.slice(0, 5);
  if (known.length > 5) parts.push(`mais ${known.length - 5}`);
  if (gone > 0) parts.push(`${gone} ${gone === 1 ? "excluído" : "excluídos"}`);
  return `Leads: ${parts.length > 1 ? `${parts.slice(0, -1).join(", ")} e ${parts.at(-1)}` : (parts[0] ?? "nenhum")}`;
}

function countsLine(value: unknown): string {
  const parts = Object.entries(asObject(value)).map(([key, count]) => {
    const [one, many] = COUNT_LABELS[key] ?? [key, key];
    return `${plain(count)} ${Number(count) === 1 ? one : many}`;
  });
  return `Registros: ${parts.join(", ") || "nenhum"}`;
}

/** A value in words: never JSON. */
function plain(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "sim" : "não";
  if (Array.isArray(value)) return value.map(plain).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${fieldLabel(key)} ${plain(item)}`)
      .join(", ");
  }
  return String(value);
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
