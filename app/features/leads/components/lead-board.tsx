import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Icon } from "~/components/ui/icon";
import { toast } from "~/components/ui/toaster";
import { LEAD_STATUSES, type LeadStatus } from "~/db/values";
import type { BoardColumn, BoardLead } from "../board.server";
import { LEAD_STATUS_LABELS } from "../labels";
import { type BoardContact, CardBody } from "./board/card";
import { Column } from "./board/column";
import { type LossAnswer, LossDialog } from "./board/loss-dialog";
import { announcements, columnCollision, columnCoordinates, screenReaderInstructions } from "./board/dnd";

/**
 * The pipeline board on /crm/leads?vista=quadro: one column per status. A card moves by drag and
 * drop (mouse, touch, or the keyboard: Space to pick up, arrows to choose the column, Space to
 * drop, with every step announced in Portuguese: ./board/dnd.ts) or through its 'Mover para…'
 * select, which is what a phone uses. A move to 'Perdido', either way, first asks why in a dialog
 * (./board/loss-dialog.tsx; issue 24) and happens only once a reason is chosen. Its WhatsApp button opens the conversation with the first
 * message template (./board/card.tsx). The move shows at once and is undone, with a toast, if
 * the server refuses it. This module (and dnd-kit with it) is loaded only when the board is shown.
 */

const MOVE_FAILED = "Erro ao mover o lead. Tente novamente.";

type Move = { seq: number; id: string; name: string; to: LeadStatus; loss?: LossAnswer };
type Answer = { ok: boolean; message?: string };

/** Sends one move to the server; tells the board how it went once the page data is fresh. */
function MoveRequest({ move, onSettled }: { move: Move; onSettled: (move: Move, answer: Answer) => void }) {
  const fetcher = useFetcher<Answer>();
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    void fetcher.submit({ intent: "status", id: move.id, status: move.to, ...move.loss }, { method: "post", action: "/crm/leads", encType: "application/json" });
  }, [fetcher, move]);
  // Idle with an answer: the action ran and the loaders have run again, so the board's data
  // already shows the lead where the server has it (the new column, or the old one on failure).
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) onSettled(move, fetcher.data);
  }, [fetcher.state, fetcher.data, move, onSettled]);
  return null;
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

export default function LeadBoard({
  columns,
  now,
  search,
  contact,
  lostReasons,
}: {
  columns: BoardColumn[];
  now: string;
  search: string;
  contact: BoardContact;
  lostReasons: string[];
}) {
  const [moves, setMoves] = useState<Move[]>([]);
  // A card on its way to 'Perdido', waiting for its reason.
  const [losing, setLosing] = useState<BoardLead | null>(null);
  const [said, setSaid] = useState("");
  const [dragging, setDragging] = useState<BoardLead | null>(null);
  const seq = useRef(0);
  // Set once the board has hydrated: the lazy chunk arrives after the page's own, and a choice
  // made in a card's menu before then reaches no handler. Tests wait for it.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const shown = useMemo(() => applyMoves(columns, moves), [columns, moves]);

  const sensors = useSensors(
    // A few pixels before a drag starts, so a tap on the handle is not a drag.
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: columnCoordinates }),
  );

  const move = useCallback((lead: BoardLead, to: LeadStatus, loss?: LossAnswer) => {
    if (lead.status === to) return;
    // 'Perdido' needs a reason first: the dialog asks, then calls move again with it.
    if (to === "perdido" && !loss) {
      setLosing(lead);
      return;
    }
    seq.current += 1;
    setMoves((current) => [...current, { seq: seq.current, id: lead.id, name: lead.full_name, to, loss }]);
  }, []);

  // A drag is announced by dnd-kit; a choice in the select is announced here.
  const moveBySelect = useCallback(
    (lead: BoardLead, to: LeadStatus) => {
      move(lead, to);
      if (to !== "perdido") setSaid(`${lead.full_name} movido para ${LEAD_STATUS_LABELS[to]}.`);
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
        data-ready={ready || undefined}
      >
        {shown.map((column) => (
          <Column key={column.status} column={column} now={now} search={search} contact={contact} onMove={moveBySelect} />
        ))}
      </div>
      <p className="sr-only" role="status">
        {said}
      </p>
      {moves.map((item) => (
        <MoveRequest key={item.seq} move={item} onSettled={settled} />
      ))}
      <LossDialog
        lead={losing}
        reasons={lostReasons}
        onConfirm={(lead, answer) => {
          setLosing(null);
          move(lead, "perdido", answer);
          setSaid(`${lead.full_name} movido para Perdido. Motivo: ${answer.lost_reason}.`);
        }}
        onCancel={() => {
          const lead = losing;
          setLosing(null);
          if (lead) setSaid(`Movimento cancelado. ${lead.full_name} continua em ${LEAD_STATUS_LABELS[lead.status]}.`);
        }}
      />
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
