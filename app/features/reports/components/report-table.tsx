import { Table, Td, Th } from "~/components/ui/table";
import { formatBRL } from "~/lib/format";
import type { Cell, CellKind, ReportTable } from "../tables";

const decimal = new Intl.NumberFormat("pt-BR", { maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 1 });

/** A cell as the page shows it (dates in the broker's zone, pt-BR numbers). */
export function formatCell(value: Cell, kind: CellKind): string {
  if (value === null || value === "") return "—";
  if (typeof value === "number") {
    if (kind === "money") return formatBRL(value);
    if (kind === "percent") return percent.format(value);
    return decimal.format(value);
  }
  if (kind === "date") {
    // An instant shown as the broker's day (UTC−3 all year).
    return new Date(new Date(value).getTime() - 3 * 3600_000).toISOString().slice(0, 10).split("-").reverse().join("/");
  }
  return value;
}

const NUMERIC: CellKind[] = ["int", "number", "money", "percent", "days"];

/** A report table; with `caption`, the accessible alternative of the chart above it. */
export function ReportDataTable({ table, empty, id }: { table: ReportTable; empty: string; id?: string }) {
  if (table.rows.length === 0) {
    return (
      <p className="rounded-md border border-dashed border-border p-4 text-sm text-muted-foreground" data-empty-table={id}>
        {empty}
      </p>
    );
  }
  return (
    <Table data-report-table={id}>
      <caption className="sr-only">{table.title}</caption>
      <thead>
        <tr>
          {table.columns.map((column) => (
            <Th key={column.header} className={NUMERIC.includes(column.kind) ? "text-right" : undefined}>
              {column.header}
            </Th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row, rowIndex) => (
          <tr key={rowIndex}>
            {row.map((cell, index) => {
              const kind = table.columns[index].kind;
              return (
                <Td key={index} className={NUMERIC.includes(kind) ? "text-right tabular-nums" : index === 0 ? "whitespace-nowrap" : table.columns[index].header === "Imóvel" ? "min-w-36 sm:min-w-48" : undefined}>
                  {formatCell(cell, kind)}
                </Td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
