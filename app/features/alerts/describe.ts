import { FEATURES } from "~/features/properties/features";
import { FILTER_ALL, type ListFilters, PRICE_MAX, PRICE_MIN } from "~/features/properties/filters";
import { PURPOSE_LABELS, TYPE_LABELS } from "~/features/properties/labels";
import { formatBRL } from "~/lib/format";

/** An alert's search in words ("Apartamento · Venda · Capim Macio · 3 quartos · até R$ 600.000"), for its mails and page. */
export function describeFilters(filters: ListFilters): string {
  const parts: string[] = [];
  parts.push(filters.tipo === FILTER_ALL ? "Qualquer tipo" : TYPE_LABELS[filters.tipo]);
  if (filters.finalidade !== FILTER_ALL) parts.push(PURPOSE_LABELS[filters.finalidade]);
  if (filters.bairro) parts.push(filters.bairro);
  if (filters.codigo) parts.push(`código ${filters.codigo}`);
  if (filters.quartos !== FILTER_ALL) parts.push(filters.quartos === "4+" ? "4+ quartos" : `${filters.quartos} quarto${filters.quartos === "1" ? "" : "s"}`);
  if (filters.suites !== FILTER_ALL) parts.push(`${filters.suites}+ suíte${filters.suites === "1" ? "" : "s"}`);
  if (filters.vagas !== FILTER_ALL) parts.push(`${filters.vagas}+ vaga${filters.vagas === "1" ? "" : "s"}`);
  if (filters.precoMin > PRICE_MIN) parts.push(`a partir de ${formatBRL(filters.precoMin)}`);
  if (filters.precoMax < PRICE_MAX) parts.push(`até ${formatBRL(filters.precoMax)}`);
  if (filters.areaMin !== null) parts.push(`a partir de ${filters.areaMin} m²`);
  if (filters.areaMax !== null) parts.push(`até ${filters.areaMax} m²`);
  if (filters.condominioMax !== null) parts.push(`condomínio até ${formatBRL(filters.condominioMax)}`);
  for (const key of filters.carac) parts.push(FEATURES[key].label);
  if (filters.financiamento) parts.push("aceita financiamento");
  if (filters.mobiliado) parts.push("mobiliado");
  return parts.join(" · ");
}
