/**
 * The agenda's words and values that the browser needs too. The statuses repeat the schema's
 * VISIT_STATUSES (app/db/schema.ts) so that pages do not pull drizzle into their bundle;
 * agenda.server.ts checks at compile time that both lists are the same.
 */
export const VISIT_STATUS_VALUES = ["agendada", "realizada", "cancelada"] as const;
export type VisitStatus = (typeof VISIT_STATUS_VALUES)[number];

export const VISIT_STATUS_LABELS: Record<VisitStatus, string> = {
  agendada: "Agendada",
  realizada: "Realizada",
  cancelada: "Cancelada",
};
export const VISIT_STATUS_VARIANT = { agendada: "info", realizada: "success", cancelada: "danger" } as const;

/** `?mostrar=todas`: past, done and cancelled visits too (the default is what is still to do). */
export const SHOW_PARAM = "mostrar";
export const SHOW_ALL = "todas";
/** `?lead=<id>`: open the schedule form for that lead (from the lead page or a booking). */
export const LEAD_PARAM = "lead";
/** The pickers' server search (`?opcoes=1&busca_lead=…&busca_imovel=…`): options only, no agenda. */
export const OPTIONS_PARAM = "opcoes";
export const LEAD_SEARCH_PARAM = "busca_lead";
export const PROPERTY_SEARCH_PARAM = "busca_imovel";

export const VISIT_MESSAGES = {
  created: "Visita agendada!",
  updated: "Visita atualizada!",
  done: "Visita marcada como realizada.",
  cancelled: "Visita cancelada.",
  reopened: "Visita reaberta.",
  saveFailed: "Erro ao salvar a visita. Tente novamente.",
  notFound: "Visita não encontrada",
  leadNotFound: "Lead não encontrado",
  propertyNotFound: "Imóvel não encontrado",
  loadFailed: "Erro ao carregar as visitas",
  unknownAction: "Ação desconhecida",
  feedCreated: "Endereço da agenda criado. Copie-o agora: ele não será mostrado de novo.",
  feedRevoked: "Endereço da agenda desativado.",
  feedFailed: "Erro ao criar o endereço da agenda. Tente novamente.",
} as const;
