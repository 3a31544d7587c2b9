import { parsePercentHundredths } from "./money";

/**
 * The negotiation settings (issue 24), edited under 'Negócios e comissões' in /crm/configuracoes:
 * the default commission of a sale (% of the final value, when the listing's captação names
 * none), of a rental (% of the first monthly rent: 100 = the whole first rent, the custom in
 * Natal), and whether corretores see commissions and their splits (admins always do).
 */
export type DealSettings = { salePercent: number; rentFirstRentPercent: number; corretorSeesCommissions: boolean };

export const DEFAULT_DEAL_SETTINGS: DealSettings = { salePercent: 6, rentFirstRentPercent: 100, corretorSeesCommissions: false };

export const DEAL_SETTINGS_MESSAGES = {
  salePercent: "Comissão de venda: informe um percentual entre 0 e 100",
  rentPercent: "Comissão de aluguel: informe um percentual do primeiro aluguel entre 0 e 100",
  saved: "Comissões padrão salvas.",
  unchanged: "Nada mudou: as comissões padrão continuam iguais.",
} as const;

/** From a form or stored JSON; a Portuguese reason when a value is wrong. */
export function parseDealSettings(input: Record<string, unknown>): { ok: true; value: DealSettings } | { ok: false; field: string; message: string } {
  const percent = (value: unknown) => (typeof value === "number" ? (value >= 0 && value <= 100 ? Math.round(value * 100) : null) : typeof value === "string" ? parsePercentHundredths(value) : null);
  const sale = percent(input.salePercent);
  if (sale === null) return { ok: false, field: "salePercent", message: DEAL_SETTINGS_MESSAGES.salePercent };
  const rent = percent(input.rentFirstRentPercent);
  if (rent === null) return { ok: false, field: "rentFirstRentPercent", message: DEAL_SETTINGS_MESSAGES.rentPercent };
  const sees = input.corretorSeesCommissions;
  return { ok: true, value: { salePercent: sale / 100, rentFirstRentPercent: rent / 100, corretorSeesCommissions: sees === true || sees === "on" || sees === "true" } };
}
