import type { PropertyPurpose, PropertyStatus, PropertyType } from "~/db/values";
import { formatBRL } from "~/lib/format";

export const TYPE_LABELS: Record<PropertyType, string> = {
  casa: "Casa",
  apartamento: "Apartamento",
  terreno: "Terreno",
  ponto_comercial: "Ponto Comercial",
};

export const PURPOSE_LABELS: Record<PropertyPurpose, string> = {
  venda: "Venda",
  aluguel: "Aluguel",
};

export const STATUS_LABELS: Record<PropertyStatus, string> = {
  disponivel: "Disponível",
  vendido: "Vendido",
  alugado: "Alugado",
  em_negociacao: "Em negociação",
};

/** "R$ 2.300/mês" for rent, "Sob consulta" when the broker set no price (0). */
export function priceText(price: number, purpose: PropertyPurpose): string {
  if (!price) return "Sob consulta";
  return purpose === "aluguel" ? `${formatBRL(price)}/mês` : formatBRL(price);
}
