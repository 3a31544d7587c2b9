import type { PropertyPurpose } from "~/db/values";
import { formatBRL, formatNumber } from "~/lib/format";

/**
 * How the listing's values read (issue 22), for the public page, the PDF, the CRM and the feed
 * alike. Empty values give null: a page shows nothing where the broker said nothing.
 *
 * Units, as stored: condomínio in R$ per month (`condo_fee`), IPTU in R$ per year (`iptu_yearly`,
 * the way the municipal bill and the portals' `<Iptu period="Yearly">` state it). Wherever a monthly
 * figure helps (a rent's monthly total, a buyer's running costs) IPTU counts as a twelfth of the year.
 */

const present = (value: number | null | undefined): value is number => typeof value === "number" && Number.isFinite(value) && value > 0;

/** "R$ 850/mês". */
export function condoFeeText(condoFee: number | null | undefined): string | null {
  return present(condoFee) ? `${formatBRL(condoFee)}/mês` : null;
}

/** IPTU per month, as a twelfth of the yearly amount (in reais, unrounded). */
export const iptuMonthly = (iptuYearly: number) => iptuYearly / 12;

/** "R$ 1.800/ano" and "R$ 150/mês" (the yearly amount / 12, to the real). */
export function iptuTexts(iptuYearly: number | null | undefined): { yearly: string; monthly: string } | null {
  if (!present(iptuYearly)) return null;
  return { yearly: `${formatBRL(iptuYearly)}/ano`, monthly: `${formatBRL(iptuMonthly(iptuYearly))}/mês` };
}

export type MonthlyCost = { rent: number | null; condoFee: number | null; iptuMonthly: number | null; total: number };

/**
 * What living there costs per month: for a rental, rent + condomínio + IPTU/12 (the 'total' the
 * portals show beside a rent); for a sale, condomínio + IPTU/12 (the owner's running costs).
 * null when nothing is known, or for a rental without a price ('Sob consulta').
 */
export function monthlyCost(listing: {
  purpose: PropertyPurpose;
  price: number;
  condo_fee: number | null;
  iptu_yearly: number | null;
}): MonthlyCost | null {
  const rent = listing.purpose === "aluguel" ? (present(listing.price) ? listing.price : null) : null;
  if (listing.purpose === "aluguel" && rent === null) return null;
  const condoFee = present(listing.condo_fee) ? listing.condo_fee : null;
  const iptu = present(listing.iptu_yearly) ? iptuMonthly(listing.iptu_yearly) : null;
  if (rent === null && condoFee === null && iptu === null) return null;
  return { rent, condoFee, iptuMonthly: iptu, total: (rent ?? 0) + (condoFee ?? 0) + (iptu ?? 0) };
}

/** "R$ 3.250/mês": the monthly total of monthlyCost. */
export function monthlyTotalText(listing: Parameters<typeof monthlyCost>[0]): string | null {
  const cost = monthlyCost(listing);
  return cost ? `${formatBRL(cost.total)}/mês` : null;
}

/** "98 m²", "1.234,5 m²". */
export function areaText(squareMetres: number | null | undefined): string | null {
  return present(squareMetres) ? `${formatNumber(squareMetres)} m²` : null;
}

/** "Térreo", "3º andar", "3º andar de 12". */
export function floorText(floor: number | null | undefined, totalFloors?: number | null): string | null {
  if (floor === null || floor === undefined) return null;
  const base = floor === 0 ? "Térreo" : `${floor}º andar`;
  return totalFloors ? `${base} de ${totalFloors}` : base;
}

/** A yes/no the broker may leave unsaid: "Sim", "Não" or null. */
export function yesNoText(value: boolean | null | undefined): "Sim" | "Não" | null {
  return value === true ? "Sim" : value === false ? "Não" : null;
}

/** The sale conditions the owner accepts, as badges: "Aceita financiamento", "Aceita FGTS", "Aceita permuta". */
export function acceptsTexts(listing: { accepts_financing: boolean | null; accepts_fgts: boolean | null; accepts_exchange: boolean | null }): string[] {
  return [
    listing.accepts_financing ? "Aceita financiamento" : null,
    listing.accepts_fgts ? "Aceita FGTS" : null,
    listing.accepts_exchange ? "Aceita permuta" : null,
  ].filter((text): text is string => text !== null);
}
