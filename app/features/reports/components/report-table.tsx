import type { ComponentProps } from "react";
import { Table, Td } from "~/components/ui/table";
import { formatBRL } from "~/lib/format";
import { cn } from "~/lib/utils";
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

/**
 * A header that wraps only when its table would not fit otherwise ("Período / anterior" on a
 * phone, "Valor fechado / (R$)" in the eight columns of 'Vendas e locações' at 1280 px).
 */
function Th({ className, ...props }: ComponentProps<"th">) {
  return <th scope="col" className={cn("border-b border-border px-2.5 py-3 text-left align-bottom font-semibold text-muted-foreground", className)} {...props} />;
}

/** Columns that name the row (the card's title on a phone): the first, and the listing's title. */
const headingColumns = (table: ReportTable) => table.columns.flatMap((column, index) => (index === 0 || column.header === "Imóvel" ? [index] : []));

/**
 * A report table. Tables of more than three columns are, below the md breakpoint, a list of
 * cards (one per row: what names it as the title, every other value under its column's name),
 * so a phone shows every value without scrolling sideways (issue 21); from md up, and for the
 * narrow tables everywhere, a plain table.
 */
export function ReportDataTable({ table, empty, id }: { table: ReportTable; empty: string; id?: string }) {
  if (table.rows.length === 0) {
    return (
      <p className="rounded-md border border-dashed border-border p-4 text-sm text-muted-foreground" data-empty-table={id}>
        {empty}
      </p>
    );
  }
  const stacked = table.columns.length > 3;
  const heading = headingColumns(table);
  return (
    <>
      {stacked && (
        <ul className="grid gap-2 md:hidden" aria-label={table.title} data-report-cards={id}>
          {table.rows.map((row, rowIndex) => (
            <li key={rowIndex} className="grid gap-2 rounded-md border border-border p-3 text-sm">
              <p className="font-medium">{heading.map((index) => formatCell(row[index], table.columns[index].kind)).join(" · ")}</p>
              <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5">
                {row.map((cell, index) =>
                  heading.includes(index) ? null : (
                    <div key={index} className="min-w-0">
                      <dt className="text-xs text-muted-foreground">{table.columns[index].header}</dt>
                      <dd className="tabular-nums">{formatCell(cell, table.columns[index].kind)}</dd>
                    </div>
                  ),
                )}
              </dl>
            </li>
          ))}
        </ul>
      )}
      <div className={stacked ? "hidden md:block" : undefined}>
        <Table data-report-table={id}>
          <caption className="sr-only">{table.title}</caption>
          <thead>
            <tr>
              {table.columns.map((column) => (
                <Th key={column.header} className={cn(NUMERIC.includes(column.kind) && "text-right")}>
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
                    <Td key={index} className={NUMERIC.includes(kind) ? "text-right tabular-nums" : index === 0 ? "sm:whitespace-nowrap" : table.columns[index].header === "Imóvel" ? "min-w-36 sm:min-w-48" : undefined}>
                      {formatCell(cell, kind)}
                    </Td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
    </>
  );
}
