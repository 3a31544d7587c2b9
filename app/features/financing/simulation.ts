import { monthlyRateFromYearly, priceSchedule, sacSchedule, type Schedule } from "./amortization";

/**
 * The financing simulator's inputs as a visitor types them (Brazilian number format), their
 * limits and messages, and the two schedules they give. Loaded with the simulator, on demand.
 */

export const LIMITS = {
  maxPrice: 100_000_000,
  /** 35 years: Caixa's longest term for a property loan. */
  maxMonths: 420,
  maxYearlyRatePercent: 30,
} as const;

export const DEFAULTS = {
  downPaymentShare: 0.2,
  months: 360,
  /** An example rate, said so on the page; not any bank's offer. */
  yearlyRatePercent: 11.5,
} as const;

export type SimulatorInput = {
  price: string;
  downPayment: string;
  months: string;
  yearlyRate: string;
};

export type SimulatorErrors = Partial<Record<keyof SimulatorInput, string>>;

export type SimulationResult =
  | { ok: true; principal: number; monthlyRate: number; months: number; sac: Schedule; price: Schedule }
  | { ok: false; errors: SimulatorErrors };

/**
 * Reads a number written the Brazilian way ("450.000,50", "11,5", "R$ 1.200") or plainly
 * ("450000.50", "11.5"). A comma is the decimal mark and dots group thousands; without a comma,
 * dots in groups of three ("1.250.000") group thousands and a lone dot is a decimal mark.
 * Null for anything else: no partial reads ("12abc"), no exponents, no NaN.
 */
export function parseBrazilianNumber(text: string): number | null {
  const value = text.replace(/R\$/gi, "").replace(/[\s\u00a0%]/g, "");
  if (value === "") return null;
  let normalized: string;
  if (value.includes(",")) {
    if (!/^-?(\d{1,3}(\.\d{3})+|\d+),\d*$/.test(value)) return null;
    normalized = value.replace(/\./g, "").replace(",", ".");
  } else if (/^-?\d{1,3}(\.\d{3})+$/.test(value)) {
    normalized = value.replace(/\./g, "");
  } else if (/^-?\d*\.?\d+$|^-?\d+\.$/.test(value)) {
    normalized = value;
  } else {
    return null;
  }
  const number = Number(normalized);
  return Number.isFinite(number) ? number : null;
}

/** "450.000,00" — for prefilling a money field (no "R$": the label says it). */
export function formatMoneyInput(reais: number): string {
  return new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(reais);
}

/** The first values of the form for a listing's price (0 when the listing shows none). */
export function initialInput(listingPrice: number): SimulatorInput {
  const price = listingPrice > 0 && listingPrice <= LIMITS.maxPrice ? listingPrice : 0;
  return {
    price: price ? formatMoneyInput(price) : "",
    downPayment: price ? formatMoneyInput(Math.round(price * DEFAULTS.downPaymentShare * 100) / 100) : "",
    months: String(DEFAULTS.months),
    yearlyRate: new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 4 }).format(DEFAULTS.yearlyRatePercent),
  };
}

const toCents = (reais: number) => Math.round(reais * 100);

/** Checks the four fields and, when all are valid, computes both schedules. */
export function simulate(input: SimulatorInput): SimulationResult {
  const errors: SimulatorErrors = {};

  const price = parseBrazilianNumber(input.price);
  let priceCents: number | null = null;
  if (input.price.trim() === "") errors.price = "Informe o valor do imóvel.";
  else if (price === null) errors.price = "Digite um valor válido, por exemplo 450.000,00.";
  else if (toCents(price) <= 0) errors.price = "O valor do imóvel deve ser maior que zero.";
  else if (price > LIMITS.maxPrice) errors.price = "O valor do imóvel deve ser de no máximo R$ 100.000.000,00.";
  else priceCents = toCents(price);

  const downPayment = parseBrazilianNumber(input.downPayment);
  let downCents: number | null = null;
  if (input.downPayment.trim() === "") errors.downPayment = "Informe a entrada (0 se não houver).";
  else if (downPayment === null) errors.downPayment = "Digite um valor válido, por exemplo 90.000,00.";
  else if (downPayment < 0) errors.downPayment = "A entrada não pode ser negativa.";
  else if (priceCents !== null && toCents(downPayment) >= priceCents) errors.downPayment = "A entrada deve ser menor que o valor do imóvel.";
  else downCents = toCents(downPayment);

  const months = parseBrazilianNumber(input.months);
  if (months === null || !Number.isInteger(months) || months < 1 || months > LIMITS.maxMonths) {
    errors.months = `Informe o prazo em meses: um número inteiro de 1 a ${LIMITS.maxMonths} (35 anos).`;
  }

  const yearlyRate = parseBrazilianNumber(input.yearlyRate);
  if (yearlyRate === null || yearlyRate < 0 || yearlyRate > LIMITS.maxYearlyRatePercent) {
    errors.yearlyRate = `Informe a taxa de juros entre 0 e ${LIMITS.maxYearlyRatePercent} % ao ano.`;
  }

  if (Object.keys(errors).length > 0 || priceCents === null || downCents === null || months === null || yearlyRate === null) {
    return { ok: false, errors };
  }
  const principal = priceCents - downCents;
  const monthlyRate = monthlyRateFromYearly(yearlyRate / 100);
  return {
    ok: true,
    principal,
    monthlyRate,
    months,
    sac: sacSchedule(principal, monthlyRate, months),
    price: priceSchedule(principal, monthlyRate, months),
  };
}
