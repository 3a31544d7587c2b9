import { type Announcements, type CollisionDetection, type KeyboardCoordinateGetter, pointerWithin } from "@dnd-kit/core";
import { LEAD_STATUSES, type LeadStatus } from "~/db/values";
import { LEAD_STATUS_LABELS } from "../../labels";

/**
 * How the board's drag and drop behaves and speaks (dnd-kit): every step announced in
 * Portuguese, arrow keys jumping a whole column, the column under the pointer or nearest the card.
 */

export type DragData = { name: string; status: LeadStatus };

const label = (status: unknown) => LEAD_STATUS_LABELS[status as LeadStatus] ?? String(status);
const dragData = (data: unknown) => data as DragData | undefined;

export const announcements: Announcements = {
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
    // Issue 24: nothing moves before the reason is chosen in the dialog that opens now.
    if (over.id === "perdido") return `Lead ${lead.name} solto na coluna Perdido. Escolha o motivo da perda.`;
    return `Lead ${lead.name} movido para ${label(over.id)}.`;
  },
  onDragCancel: ({ active }) => {
    const lead = dragData(active.data.current);
    return lead && `Movimento cancelado. Lead ${lead.name} continua em ${label(lead.status)}.`;
  },
};

export const screenReaderInstructions = {
  draggable:
    "Para mover este lead para outra coluna, pressione espaço ou Enter para pegá-lo, use as setas para a esquerda e para a direita para escolher a coluna e pressione espaço ou Enter para soltar. Esc cancela.",
};

/**
 * Arrow keys jump a whole column (dnd-kit's default moves 25 px): the card lines up with the
 * centre of the next or previous column, at the same height.
 */
export const columnCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
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
export const columnCollision: CollisionDetection = (args) => {
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
