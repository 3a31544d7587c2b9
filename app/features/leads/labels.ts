import type { LeadInterest, LeadOrigin, LeadStatus } from "~/db/values";
import { portalDisplayName } from "~/features/portals/portal-names";

export const INTEREST_LABELS: Record<LeadInterest, string> = { comprar: "Comprar", alugar: "Alugar", vender: "Vender" };
export const ORIGIN_LABELS: Record<LeadOrigin, string> = { site: "Site", whatsapp: "WhatsApp", indicacao: "Indicação", outro: "Outro", portal: "Portal" };
/** The origin as the CRM shows it: a portal's lead names the portal, "Portal (VivaReal)". */
export function originLabel(lead: { origin: LeadOrigin; portal_name?: string | null }): string {
  const label = ORIGIN_LABELS[lead.origin];
  return lead.origin === "portal" && lead.portal_name ? `${label} (${portalDisplayName(lead.portal_name)})` : label;
}
export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  novo: "Novo",
  em_atendimento: "Em atendimento",
  convertido: "Convertido",
  perdido: "Perdido",
};
export const LEAD_STATUS_VARIANT = { novo: "info", em_atendimento: "warning", convertido: "success", perdido: "danger" } as const;
