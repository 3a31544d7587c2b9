import {
  type Announcements,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { Icon } from "~/components/ui/icon";
import { toast } from "~/components/ui/toaster";
import { LEAD_STATUSES, type LeadStatus } from "~/db/values";
import { formatRelative } from "~/features/dashboard/relative-time";
import { cn } from "~/lib/utils";
import { SEARCH_PARAM } from "~/lib/pagination";
import type { BoardColumn, BoardLead } from "../board.server";
import { LEAD_STATUS_LABELS } from "../labels";

/**
 * The pipeline board on /crm/leads?vista=quadro: one column per status. A card moves by drag and
 * drop (mouse, touch, or the keyboard: Space to pick up, arrows to choose the column, Space to
 * drop, with every step announced in Portuguese) or through its 'Mover para…' select, which is
 * what a phone uses. The move shows at once and is undone, with a toast, if the server refuses
 * it. This module (and dnd-kit with it) is loaded only when the board is shown.
 */

const MOVE_FAILED = "Erro ao mover o lead. Tente novamente.";

type Move = { seq: number; id: string; name: string; to: LeadStatus };
type Answer = { ok: boolean; message?: string };
type DragData = { name: string; status: LeadStatus };

const label = (status: unknown) => LEAD_STATUS_LABELS[status as LeadStatus] ?? String(status);
const dragData = (data: unknown) => data as DragData | undefined;

const announcements: Announcements = {
  onDragStart: ({ active }) => {
    const lead = dragData(active.data.current);
    return lead && `Lead ${lead.name} pego, na coluna ${label(lead.status)}. Use as setas para a esquerda e para a direita para escolher a coluna.`;
  },
  onDragOver: ({ active, over }) => {
    const lead = dragData(active.data.current);
    if (!lead) return undefined;
    return over ? `Lead ${lead.name} sobre a coluna ${label(over.id)}.` : `Lead ${lead.name} fora das colunas.`;
  },
  onDragEnd: ({ active, over }) => {
    const lead = dragData(active.data.current);
    if (!lead) return undefined;
    if (!over) return `Lead ${lead.name} solto fora das colunas. Nada mudou.`;
    if (over.id === lead.status) return `Lead ${lead.name} continua em ${label(lead.status)}.`;
    return `Lead ${lead.name} movido para ${label(over.id)}.`;
  },
  onDragCancel: ({ active }) => {
    const lead = dragData(active.data.current);
    return lead && `Movimento cancelado. Lead ${lead.name} continua em ${label(lead.status)}.`;
  },
};

const screenReaderInstructions = {
  draggable:
    "Para mover este lead para outra coluna, pressione espaço ou Enter para pegá-lo, use as setas para a esquerda e para a direita para escolher a coluna e pressione espaço ou Enter para soltar. Esc cancela.",
};

/**
 * Arrow keys jump a whole column (dnd-kit's default moves 25 px): the card lines up with the
 * centre of the next or previous column, at the same height.
 */
const columnCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const step = event.code === "ArrowRight" ? 1 : event.code === "ArrowLeft" ? -1 : 0;
  if (step === 0) return undefined;
  event.preventDefault();
  const { collisionRect, droppableRects, over, active } = context;
  if (!collisionRect || !active) return undefined;
  const from = (over?.id ?? dragData(active.data.current)?.status) as LeadStatus;
  const index = LEAD_STATUSES.indexOf(from) + step;
  if (index < 0 || index >= LEAD_STATUSES.length) return undefined;
  const rect = droppableRects.get(LEAD_STATUSES[index]);
  if (!rect) return undefined;
  return {
    x: rect.left + (rect.width - collisionRect.width) / 2,
    y: Math.min(Math.max(currentCoordinates.y, rect.top), Math.max(rect.top, rect.bottom - collisionRect.height)),
  };
};

/**
 * The column under the pointer; for the keyboard (no pointer), or a pointer in the gap between
 * columns, the column whose centre is nearest the card's centre horizontally.
 */
const columnCollision: CollisionDetection = (args) => {
  if (args.pointerCoordinates) {
    const within = pointerWithin(args);
    if (within.length > 0) return within;
  }
  const centre = args.collisionRect.left + args.collisionRect.width / 2;
  let best: { id: string | number; distance: number; container: (typeof args.droppableContainers)[number] } | undefined;
  for (const container of args.droppableContainers) {
    const rect = args.droppableRects.get(container.id);
    if (!rect) continue;
    const distance = Math.abs(rect.left + rect.width / 2 - centre);
    if (!best || distance < best.distance) best = { id: container.id, distance, container };
  }
  return best ? [{ id: best.id, data: { droppableContainer: best.container, value: best.distance } }] : [];
};

/** Sends one move to the server; tells the board how it went once the page data is fresh. */
function MoveRequest({ move, onSettled }: { move: Move; onSettled: (move: Move, answer: Answer) => void }) {
  const fetcher = useFetcher<Answer>();
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    void fetcher.submit({ intent: "status", id: move.id, status: move.to }, { method: "post", action: "/crm/leads", encType: "application/json" });
  }, [fetcher, move]);
  // Idle with an answer: the action ran and the loaders have run again, so the board's data
  // already shows the lead where the server has it (the new column, or the old one on failure).
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) onSettled(move, fetcher.data);
  }, [fetcher.state, fetcher.data, move, onSettled]);
  return null;
}

function MoveSelect({ lead, onMove }: { lead: BoardLead; onMove: (lead: BoardLead, to: LeadStatus) => void }) {
  const id = `mover-${lead.id}`;
  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        Mover {lead.full_name} para…
      </label>
      <select
        id={id}
        value=""
        onChange={(event) => {
          const to = event.target.value as LeadStatus;
          if ((LEAD_STATUSES as readonly string[]).includes(to)) onMove(lead, to);
        }}
        className="h-9 w-full appearance-none rounded-md border border-input bg-white pl-2.5 pr-8 text-sm text-foreground"
      >
        <option value="" disabled>
          Mover para…
        </option>
        {LEAD_STATUSES.filter((status) => status !== lead.status).map((status) => (
          <option key={status} value={status}>
            {LEAD_STATUS_LABELS[status]}
          </option>
        ))}
      </select>
      <Icon name="arrow-right-left" className="pointer-events-none absolute right-2.5 top-1/2 -translate-y-1/2 text-muted-foreground" />
    </div>
  );
}

function CardBody({ lead, now, handle }: { lead: BoardLead; now: string; handle?: React.ReactNode }) {
  return (
    <>
      <div className="flex items-start gap-1">
        {handle}
        <div className="min-w-0 flex-1 pt-1.5">
          <Link to={`/crm/leads/${lead.id}`} className="block truncate font-semibold text-primary underline-offset-4 hover:underline">
            {lead.full_name}
          </Link>
          <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
            <span className="whitespace-nowrap">{lead.phone}</span>
            {lead.property_codigo && <span className="whitespace-nowrap font-mono font-semibold text-foreground">{lead.property_codigo}</span>}
            <span className="whitespace-nowrap">{formatRelative(lead.created_at, now)}</span>
          </p>
        </div>
      </div>
      {lead.excerpt && (
        <p className="mt-2 line-clamp-2 break-words text-sm text-foreground/80" title={lead.excerpt}>
          {lead.excerpt}
        </p>
      )}
    </>
  );
}

function BoardCard({ lead, now, onMove }: { lead: BoardLead; now: string; onMove: (lead: BoardLead, to: LeadStatus) => void }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: lead.id,
    data: { name: lead.full_name, status: lead.status } satisfies DragData,
    attributes: { roleDescription: "lead arrastável" },
  });
  return (
    <li
      ref={setNodeRef}
      className={cn("rounded-lg border border-border bg-white p-2.5 shadow-xs", isDragging && "opacity-40")}
      data-lead-card={lead.id}
    >
      <CardBody
        lead={lead}
        now={now}
        handle={
          <button
            type="button"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={`Arrastar ${lead.full_name}`}
            // The handle alone takes the touch: the rest of the card still scrolls the board.
            className="grid size-9 shrink-0 cursor-grab touch-none place-items-center rounded-md text-muted-foreground hover:bg-muted active:cursor-grabbing"
          >
            <Icon name="grip-vertical" className="size-4" />
          </button>
        }
      />
      <div className="mt-2">
        <MoveSelect lead={lead} onMove={onMove} />
      </div>
    </li>
  );
}

function Column({
  column,
  now,
  search,
  onMove,
}: {
  column: BoardColumn & { shown: number };
  now: string;
  search: string;
  onMove: (lead: BoardLead, to: LeadStatus) => void;
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
            <BoardCard key={lead.id} lead={lead} now={now} onMove={onMove} />
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

/**
 * The loader's columns with the moves still on their way applied: the card shows in its new
 * column at once, and the totals follow. A move the loader data already shows changes nothing.
 */
export function applyMoves(columns: BoardColumn[], moves: { id: string; to: LeadStatus }[]): (BoardColumn & { shown: number })[] {
  const target = new Map(moves.map((move) => [move.id, move.to]));
  const result = new Map(columns.map((column) => [column.status, { ...column, leads: [] as BoardLead[], shown: column.leads.length }]));
  for (const column of columns) {
    for (const lead of column.leads) {
      const to = target.get(lead.id) ?? lead.status;
      const into = result.get(to);
      if (to !== lead.status && into) {
        result.get(lead.status)!.total -= 1;
        into.total += 1;
        into.leads.push({ ...lead, status: to });
      } else {
        result.get(lead.status)!.leads.push(lead);
      }
    }
  }
  for (const column of result.values()) column.leads.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  return LEAD_STATUSES.map((status) => result.get(status) ?? { status, total: 0, leads: [], shown: 0 });
}

export default function LeadBoard({ columns, now, search }: { columns: BoardColumn[]; now: string; search: string }) {
  const [moves, setMoves] = useState<Move[]>([]);
  const [said, setSaid] = useState("");
  const [dragging, setDragging] = useState<BoardLead | null>(null);
  const seq = useRef(0);
  const shown = useMemo(() => applyMoves(columns, moves), [columns, moves]);

  const sensors = useSensors(
    // A few pixels before a drag starts, so a tap on the handle is not a drag.
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnCoordinates }),
  );

  const move = useCallback((lead: BoardLead, to: LeadStatus) => {
    if (lead.status === to) return;
    seq.current += 1;
    setMoves((current) => [...current, { seq: seq.current, id: lead.id, name: lead.full_name, to }]);
  }, []);

  // A drag is announced by dnd-kit; a choice in the select is announced here.
  const moveBySelect = useCallback(
    (lead: BoardLead, to: LeadStatus) => {
      move(lead, to);
      setSaid(`${lead.full_name} movido para ${LEAD_STATUS_LABELS[to]}.`);
    },
    [move],
  );

  const settled = useCallback((done: Move, answer: Answer) => {
    setMoves((current) => current.filter((item) => item.seq !== done.seq));
    if (!answer.ok) {
      toast.error(answer.message ?? MOVE_FAILED);
      setSaid(`${done.name} não foi movido: ${answer.message ?? MOVE_FAILED}`);
    }
  }, []);

  const findLead = (id: unknown) => shown.flatMap((column) => column.leads).find((lead) => lead.id === id);

  return (
    <DndContext
      id="quadro-de-leads"
      sensors={sensors}
      collisionDetection={columnCollision}
      accessibility={{ announcements, screenReaderInstructions }}
      onDragStart={(event: DragStartEvent) => setDragging(findLead(event.active.id) ?? null)}
      onDragCancel={() => setDragging(null)}
      onDragEnd={(event: DragEndEvent) => {
        setDragging(null);
        const lead = findLead(event.active.id);
        const to = event.over?.id as LeadStatus | undefined;
        if (lead && to && (LEAD_STATUSES as readonly string[]).includes(to)) move(lead, to);
      }}
    >
      {/* `relative`: screen-reader-only text inside is positioned within the strip, not the page. */}
      <div
        className="relative -mx-4 flex min-w-0 snap-x snap-mandatory gap-3 overflow-x-auto px-4 pb-3 sm:mx-0 sm:px-0 xl:grid xl:snap-none xl:grid-cols-4 xl:overflow-visible"
        data-testid="lead-board"
      >
        {shown.map((column) => (
          <Column key={column.status} column={column} now={now} search={search} onMove={moveBySelect} />
        ))}
      </div>
      <p className="sr-only" role="status">
        {said}
      </p>
      {moves.map((item) => (
        <MoveRequest key={item.seq} move={item} onSettled={settled} />
      ))}
      <DragOverlay dropAnimation={null}>
        {dragging ? (
          <div className="w-64 rotate-2 cursor-grabbing rounded-lg border border-primary bg-white p-2.5 shadow-xl">
            <CardBody lead={dragging} now={now} handle={<span className="grid size-9 place-items-center text-muted-foreground"><Icon name="grip-vertical" /></span>} />
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}
