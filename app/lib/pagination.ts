/**
 * Page numbers in URLs (`?pagina=2`) and the search text of list screens. A page number that is
 * not a plain positive integer reads as page 1, and one past the end shows the last page: a
 * stale or hand-edited link still lands on a list, never on an error.
 */
export const PAGE_PARAM = "pagina";

/** The page a URL asks for (1 when absent or malformed); clamp it with `clampPage` once the total is known. */
export function parsePage(params: URLSearchParams): number {
  const raw = params.get(PAGE_PARAM)?.trim() ?? "";
  // Any run of digits (a huge one clamps to the last page later); anything else is page 1.
  if (!/^\d{1,30}$/.test(raw)) return 1;
  return Math.max(1, Number(raw));
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export function clampPage(page: number, total: number, pageSize: number): number {
  return Math.min(Math.max(1, page), pageCount(total, pageSize));
}

/** What a list loader hands its page: the rows of one page and where that page sits. */
export type PageInfo = { page: number; pageCount: number; pageSize: number; total: number };

export function pageInfo(page: number, total: number, pageSize: number): PageInfo {
  return { page: clampPage(page, total, pageSize), pageCount: pageCount(total, pageSize), pageSize, total };
}

/** `params` with the page set (page 1 leaves it out, so the first page has one address). */
export function withPage(params: URLSearchParams | string | Record<string, string>, page: number): string {
  const next = new URLSearchParams(params);
  next.delete(PAGE_PARAM);
  if (page > 1) next.set(PAGE_PARAM, String(page));
  const query = next.toString();
  return query ? `?${query}` : "";
}

/**
 * Text typed into a search box, as the database will compare it: control characters and line
 * separators become spaces (NUL would make PostgreSQL refuse the query, and the search indexes
 * use a newline between fields), at most `max` characters, no half of a split character.
 */
export function searchText(value: string | null | undefined, max = 100): string {
  return (value ?? "")
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g, " ")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "$1")
    .trim()
    .slice(0, max)
    .replace(/[\uD800-\uDBFF]$/, "")
    .trim();
}

/** `%` and `_` typed by a person are letters, not wildcards. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Rows per page of the CRM's tables. */
export const TABLE_PAGE_SIZE = 25;
export const SEARCH_PARAM = "busca";

/** A staff table's page and search from its URL (`?busca=…&pagina=…`). */
export function parseTableQuery(params: URLSearchParams): { page: number; search: string } {
  return { page: parsePage(params), search: searchText(params.get(SEARCH_PARAM)) };
}

/** A "contains" pattern for LIKE: the text with its wildcards escaped (use with `escape '\'`). */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
