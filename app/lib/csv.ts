/**
 * CSV as the broker's Excel in pt-BR opens it (UTF-8 with BOM, ';' between cells, CRLF), written
 * so that no text we did not write can become a formula (CSV injection), whoever opens it:
 * - a text starting with = + - @, tab or CR gets an apostrophe in front, as before;
 * - so does such a character right after a ',' ';' tab or line break inside a text: a
 *   spreadsheet set to ',' (another locale) cuts cells at every comma, and lenient readers lose
 *   track of quotes in a ';' file, so any of those may start a cell for someone;
 * - a field holding ';' ',' '"' tab or a line break, or starting with one of those characters,
 *   is quoted ("" inside), so a reader that honours quotes keeps it one cell.
 * Every CSV download goes through here (reports, lists, a person's data export).
 */

const LEADING_FORMULA = /^[=+\-@\t\r]/;
/** A formula character right after something that may end a cell for some reader. */
const INNER_FORMULA = /([,;\t\r\n])(?=[=+\-@\t\r])/g;
const NEEDS_QUOTES = /[;,"\t\r\n]/;

/** A text cell that cannot start a formula (also used for XLSX text cells, where only the start matters). */
export function neutralizeFormula(text: string): string {
  return LEADING_FORMULA.test(text) ? `'${text}` : text;
}

/** A field as CSV text: quoted when it needs it. Numbers we format ourselves pass `trusted`. */
export function csvField(value: string | null | undefined, options: { trusted?: boolean } = {}): string {
  const raw = value ?? "";
  const text = options.trusted ? raw : neutralizeFormula(raw.replace(INNER_FORMULA, "$1'"));
  return NEEDS_QUOTES.test(text) || LEADING_FORMULA.test(raw) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole document: BOM (Excel reads the accents), ';' between cells, CRLF (what Excel writes). */
export function csvDocument(rows: string[][]): string {
  return `\uFEFF${rows.map((row) => row.join(";")).join("\r\n")}\r\n`;
}
