import type { Furnished, PropertyPurpose, PropertyStatus, PropertyType, RentalGuarantee } from "~/db/values";
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

/** 'Mobília' (issue 22). */
export const FURNISHED_LABELS: Record<Furnished, string> = {
  mobiliado: "Mobiliado",
  semimobiliado: "Semimobiliado",
  sem_mobilia: "Sem mobília",
};

/** Rental guarantees (issue 22), as Brazilian leases name them. */
export const RENTAL_GUARANTEE_LABELS: Record<RentalGuarantee, string> = {
  fiador: "Fiador",
  seguro_fianca: "Seguro fiança",
  caucao: "Caução",
  titulo_capitalizacao: "Título de capitalização",
};

/** VRSync's `<Warranties><Warranty>` values for the feed (developers.grupozap.com, elements/details). */
export const RENTAL_GUARANTEE_VRSYNC: Record<RentalGuarantee, string> = {
  fiador: "GUARANTOR",
  seguro_fianca: "INSURANCE_GUARANTEE",
  caucao: "SECURITY_DEPOSIT",
  titulo_capitalizacao: "CAPITALIZATION_BONDS",
};

/** "R$ 2.300/mês" for rent, "Sob consulta" when the broker set no price (0). */
export function priceText(price: number, purpose: PropertyPurpose): string {
  if (!price) return "Sob consulta";
  return purpose === "aluguel" ? `${formatBRL(price)}/mês` : formatBRL(price);
}
