/**
 * The start of a lead's message for lists and cards: whitespace folded to single spaces, cut at a
 * word where one is near the limit, "…" when something was left out; null when there is no text.
 */
export function excerpt(text: string | null | undefined, max: number): string | null {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  if (!flat) return null;
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
