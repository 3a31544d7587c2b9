/**
 * A neighbourhood's address on the site (/imoveis/bairro/<slug>): lower-case ASCII, accents
 * stripped, any run of other characters one hyphen. 'Petrópolis' → 'petropolis', 'Parque das
 * Nações' → 'parque-das-nacoes'. Spellings that differ only in case, accents or punctuation
 * ('Ponta Negra', 'ponta  negra ') share one page. Shared by server and browser: no imports.
 */
export function neighbourhoodSlug(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The longest slug we look up: anything longer is no neighbourhood of ours (404 without a query). */
export const MAX_SLUG_LENGTH = 120;

/** What a slug looks like: a value that could come out of neighbourhoodSlug. */
export function isNeighbourhoodSlug(value: string): boolean {
  return value.length > 0 && value.length <= MAX_SLUG_LENGTH && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}

/** The public page of a neighbourhood. */
export function neighbourhoodPath(name: string): string {
  return `/imoveis/bairro/${neighbourhoodSlug(name)}`;
}

/**
 * The link from a property page to its neighbourhood's page, or null when that page may not
 * exist: the listing is off the market (the page lists only listings on it), or the name has no
 * letter or digit to make a slug of.
 */
export function neighbourhoodHrefOf(property: { neighborhood: string; status: string }): string | null {
  if (property.status !== "disponivel" && property.status !== "em_negociacao") return null;
  return neighbourhoodSlug(property.neighborhood) ? neighbourhoodPath(property.neighborhood) : null;
}
