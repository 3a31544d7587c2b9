import type { ReactNode } from "react";
import { Table } from "~/components/ui/table";
import { cn } from "~/lib/utils";

/**
 * The CRM's lists of records (leads, listings): a table from 1280 px, cards on narrower screens
 * (a phone, a tablet, 1024 px beside the sidebar), and a sentence when there is nothing. The caller
 * gives the header cells, a row's cells and a card's content.
 */
export function RecordList<T extends { id: string }>({
  items,
  emptyText,
  head,
  row,
  card,
  cardClassName,
}: {
  items: T[];
  emptyText: string;
  head: ReactNode;
  row: (item: T) => ReactNode;
  card: (item: T) => ReactNode;
  cardClassName?: string;
}) {
  if (items.length === 0) return <p className="p-10 text-center text-muted-foreground">{emptyText}</p>;
  return (
    <>
      <div className="hidden xl:block">
        <Table>
          <thead>
            <tr>{head}</tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} className="hover:bg-muted/50">
                {row(item)}
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      <ul className="grid grid-cols-1 gap-3 p-3 lg:grid-cols-2 xl:hidden">
        {items.map((item) => (
          <li key={item.id} className={cn("rounded-lg border border-border bg-white p-4", cardClassName)}>
            {card(item)}
          </li>
        ))}
      </ul>
    </>
  );
}
