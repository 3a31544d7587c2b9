/**
 * The CRM's price input (spec §5): digits typed are read as cents and shown as "1.250.000,00".
 */
const format = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** What the field shows after any keystroke. */
export function maskBRLInput(raw: string): string {
  const digits = raw.replace(/\D/g, "").replace(/^0+(?=\d)/, "").slice(0, 13);
  return format.format(Number(digits || "0") / 100);
}

/** The number a masked value stands for ("1.250.000,00" → 1250000). Plain numbers pass through. */
export function parseBRLInput(value: string | number): number {
  if (typeof value === "number") return value;
  const trimmed = value.trim();
  if (trimmed === "") return Number.NaN;
  if (trimmed.includes(",")) return Number(trimmed.replace(/\./g, "").replace(",", "."));
  return Number(trimmed);
}

/** The masked text for a stored price. */
export function priceToInput(price: number): string {
  return format.format(price);
}
