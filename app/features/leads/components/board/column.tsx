import { useDroppable } from "@dnd-kit/core";
import { Link } from "react-router";
import { SEARCH_PARAM } from "~/lib/pagination";
import { cn } from "~/lib/utils";
import type { BoardColumn } from "../../board.server";
import { LEAD_STATUS_LABELS } from "../../labels";
import { BoardCard, type BoardContact, type OnMove } from "./card";

/** One status: its heading and total, its newest cards, and 'Ver todos' when there are more. */
export function Column({
  column,
  now,
  search,
  contact,
  onMove,
}: {
  column: BoardColumn & { shown: number };
  now: string;
  search: string;
  contact: BoardContact;
  onMove: OnMove;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: column.status });
  const headingId = `coluna-${column.status}`;
  const all = new URLSearchParams({ status: column.status });
  if (search) all.set(SEARCH_PARAM, search);
  return (
    <section
      ref={setNodeRef}
      aria-labelledby={headingId}
      data-column={column.status}
      className={cn(
        "flex w-[82vw] max-w-72 shrink-0 snap-start flex-col rounded-lg border border-border bg-muted/70 transition-colors sm:w-72 xl:w-auto xl:max-w-none",
        isOver && "border-primary bg-primary/10",
      )}
    >
      <header className="flex items-center justify-between gap-2 px-3 py-2.5">
        <h2 id={headingId} className="font-semibold">
          {LEAD_STATUS_LABELS[column.status]}
        </h2>
        <span className="rounded-full bg-white px-2.5 py-0.5 text-sm font-semibold" data-column-total>
          {column.total}
          <span className="sr-only">{column.total === 1 ? " lead" : " leads"}</span>
        </span>
      </header>
      {column.leads.length === 0 ? (
        <p className="mx-2 mb-2 grid min-h-24 flex-1 place-items-center rounded-md border border-dashed border-border px-3 text-center text-sm text-muted-foreground">
          Nenhum lead
        </p>
      ) : (
        <ul className="flex flex-1 flex-col gap-2 px-2 pb-2">
          {column.leads.map((lead) => (
            <BoardCard key={lead.id} lead={lead} now={now} contact={contact} onMove={onMove} />
          ))}
        </ul>
      )}
      {column.total > column.shown && (
        <p className="border-t border-border px-3 py-2 text-sm text-muted-foreground">
          Mostrando os {column.shown} mais recentes de {column.total}.{" "}
          <Link to={`/crm/leads?${all}`} className="font-medium text-primary underline-offset-4 hover:underline">
            Ver todos<span className="sr-only"> os leads {LEAD_STATUS_LABELS[column.status]}</span>
          </Link>
        </p>
      )}
    </section>
  );
}
