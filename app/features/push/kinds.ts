/**
 * The kinds of push alert a staff member may choose (issue 25), shared by the schema, the
 * account page and the server. Client-safe: no imports.
 */
export const PUSH_KINDS = ["novo_lead", "proximo_contato", "visita_1h", "match_novo", "proposta_expirando"] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export const PUSH_KIND_LABELS: Record<PushKind, string> = {
  novo_lead: "Novo lead",
  proximo_contato: "Próximo contato vencendo",
  visita_1h: "Visita em 1 hora",
  match_novo: "Match novo (imóvel publicado que combina com leads)",
  proposta_expirando: "Proposta expirando",
};

/** Most devices one staff member may register (a phone, a tablet, a few browsers). */
export const MAX_DEVICES_PER_USER = 10;

/** "Maria" of "Maria da Silva": the one personal detail a push (a public lock screen) may show. */
export function firstName(fullName: string): string {
  const first = fullName.trim().split(/\s+/)[0] ?? "";
  return Array.from(first).slice(0, 30).join("") || "Lead";
}
