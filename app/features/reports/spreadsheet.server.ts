import { csvDocument, csvField, neutralizeFormula } from "~/lib/csv";
import { brokerDay, toBrokerDateTimeInput } from "~/lib/format";
import type { Cell, CellKind, Column, ReportTable } from "./tables";

/**
 * A table as a download (issue 12): CSV for Excel in pt-BR (UTF-8 with BOM, ';' between cells,
 * CRLF, decimal comma) and XLSX (exceljs) with real number and date cells. Text that a
 * spreadsheet would run as a formula is prefixed with an apostrophe and quoted (CSV injection,
 * `~/lib/csv`); numbers are written as numbers and never prefixed.
 */

export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** More rows than this are not exported in one file (bounded memory; filter to narrow it). */
export const MAX_EXPORT_ROWS = 20_000;

export { neutralizeFormula };

const decimal = (value: number, digits: number) => value.toFixed(digits).replace(".", ",");

/** A cell as a CSV field, in the broker's formats: numbers and dates as we write them, texts neutralised. */
function csvCell(value: Cell, kind: CellKind): string {
  return typeof value === "number" || kind === "date" || kind === "datetime" ? csvField(csvText(value, kind), { trusted: true }) : csvField(value);
}

function csvText(value: Cell, kind: CellKind): string {
  if (value === null || value === "") return "";
  if (typeof value === "number") {
    switch (kind) {
      case "int":
        return String(Math.round(value));
      case "money":
        return decimal(value, 2);
      case "percent":
        return `${decimal(value * 100, 2)}%`;
      default:
        return Number.isInteger(value) ? String(value) : decimal(value, 2);
    }
  }
  if (kind === "date") return brokerDay(value).split("-").reverse().join("/");
  if (kind === "datetime") {
    const [day, time] = toBrokerDateTimeInput(value).split("T");
    return `${day.split("-").reverse().join("/")} ${time}`;
  }
  return value;
}

export function toCsv(table: ReportTable): string {
  return csvDocument([
    table.columns.map((column) => csvField(column.header)),
    ...table.rows.map((row) => row.map((cell, index) => csvCell(cell, table.columns[index].kind))),
  ]);
}

/** One row as a line of toCsv's document (CRLF included), for downloads written a batch at a time. */
export function csvLine(row: Cell[], columns: Column[]): string {
  return `${row.map((cell, index) => csvCell(cell, columns[index].kind)).join(";")}\r\n`;
}

const NUMBER_FORMATS: Partial<Record<CellKind, string>> = {
  int: "0",
  number: "0.##",
  days: "0.##",
  money: "#,##0.00",
  percent: "0.00%",
  date: "dd/mm/yyyy",
  datetime: "dd/mm/yyyy hh:mm",
};

/**
 * A date-time as the spreadsheet should show it: Excel has no time zones, so the cell holds the
 * broker's wall-clock time (written as if it were UTC, which is how exceljs stores dates).
 */
function brokerWallClock(value: string, kind: "date" | "datetime"): Date {
  const local = toBrokerDateTimeInput(value);
  return new Date(kind === "date" ? `${local.slice(0, 10)}T00:00:00Z` : `${local}:00Z`);
}

/** Sheet names: at most 31 characters, none of : \ / ? * [ ] */
export const sheetName = (title: string) => title.replace(/[:\\/?*[\]]/g, " ").slice(0, 31);

/** The sheet's columns: header, width and number format by kind. */
export const sheetColumns = (columns: Column[]) =>
  columns.map((column) => ({
    header: column.header,
    width: Math.min(60, Math.max(12, column.header.length + 2)),
    style: NUMBER_FORMATS[column.kind] ? { numFmt: NUMBER_FORMATS[column.kind] } : {},
  }));

/** A row's cells as ExcelJS writes them: real dates and numbers, texts that cannot start a formula. */
export function xlsxValues(row: Cell[], columns: Column[]): (string | number | Date | null)[] {
  return row.map((cell, index) => {
    const kind = columns[index].kind;
    if (cell === null || cell === "") return null;
    if ((kind === "date" || kind === "datetime") && typeof cell === "string") return brokerWallClock(cell, kind);
    if (typeof cell === "string") return neutralizeFormula(cell);
    return cell;
  });
}

export async function toXlsx(table: ReportTable): Promise<Buffer> {
  // Loaded on the first spreadsheet: ExcelJS adds about 27 MB to a process that imports it, and
  // most processes (every cluster worker) never write one.
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "CRM";
  const sheet = workbook.addWorksheet(sheetName(table.title));
  sheet.columns = sheetColumns(table.columns);
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: "frozen", ySplit: 1 }];
  for (const row of table.rows) sheet.addRow(xlsxValues(row, table.columns));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A download's headers; the name is ASCII (letters, digits, dashes) plus the extension. */
export function downloadHeaders(format: ExportFormat, baseName: string): Headers {
  const name = `${baseName.replace(/[^a-z0-9-]+/gi, "-")}.${format}`;
  return new Headers({
    "Content-Disposition": `attachment; filename="${name}"`,
    "Cache-Control": "no-store",
    "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  });
}

/** A download of a table held in memory (reports, lists of at most MAX_EXPORT_ROWS). */
export async function tableDownload(table: ReportTable, format: ExportFormat, baseName: string): Promise<Response> {
  const headers = downloadHeaders(format, baseName);
  if (format === "csv") return new Response(toCsv(table), { headers });
  const body = await toXlsx(table);
  return new Response(new Uint8Array(body), { headers });
}
