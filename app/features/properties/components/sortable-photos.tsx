import { type Announcements, DndContext, type DragEndEvent, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors } from "@dnd-kit/core";
import { SortableContext, arrayMove, rectSortingStrategy, sortableKeyboardCoordinates, useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Icon } from "~/components/ui/icon";
import { mediaUrlForWidth } from "~/features/media/urls";
import { cn } from "~/lib/utils";

/**
 * The listing's photos in the order the site shows them (issue 22, item 5): the first is the
 * cover. Reordered by dragging a photo's handle (mouse, touch, or the keyboard: space or Enter to
 * pick it up, arrows to move, space or Enter to drop, each step announced in Portuguese), by the
 * arrow buttons, or sent to the front with 'Definir como capa'. CRM only: dnd-kit never reaches a
 * public page.
 */

const position = (images: string[], id: unknown) => images.indexOf(String(id)) + 1;

function announcementsFor(images: string[]): Announcements {
  return {
    onDragStart: ({ active }) => `Foto ${position(images, active.id)} pega. Use as setas para escolher a nova posição.`,
    onDragOver: ({ active, over }) => (over ? `Foto ${position(images, active.id)} sobre a posição ${position(images, over.id)}.` : `Foto ${position(images, active.id)} fora da lista.`),
    onDragEnd: ({ active, over }) =>
      over ? `Foto ${position(images, active.id)} solta na posição ${position(images, over.id)}${position(images, over.id) === 1 ? ", agora é a capa" : ""}.` : "Foto solta fora da lista. Nada mudou.",
    onDragCancel: ({ active }) => `Movimento cancelado. A foto ${position(images, active.id)} continua no lugar.`,
  };
}

const screenReaderInstructions = {
  draggable:
    "Para mudar a ordem, pressione espaço ou Enter para pegar a foto, use as setas para escolher a posição e pressione espaço ou Enter para soltar. Esc cancela. A primeira foto é a capa.",
};

export function SortablePhotos({ images, onChange }: { images: string[]; onChange: (images: string[]) => void }) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    onChange(arrayMove(images, images.indexOf(String(active.id)), images.indexOf(String(over.id))));
  }

  const move = (from: number, to: number) => {
    if (to < 0 || to >= images.length) return;
    onChange(arrayMove(images, from, to));
  };

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements: announcementsFor(images), screenReaderInstructions }}>
      <SortableContext items={images} strategy={rectSortingStrategy}>
        <ol className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Fotos do imóvel (a primeira é a capa)" data-testid="photo-list">
          {images.map((url, index) => (
            <SortablePhoto
              key={url}
              url={url}
              index={index}
              last={index === images.length - 1}
              onMove={(step) => move(index, index + step)}
              onCover={() => move(index, 0)}
              onRemove={() => onChange(images.filter((image) => image !== url))}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortablePhoto({
  url,
  index,
  last,
  onMove,
  onCover,
  onRemove,
}: {
  url: string;
  index: number;
  last: boolean;
  onMove: (step: -1 | 1) => void;
  onCover: () => void;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: url });
  const n = index + 1;
  const iconButton = "grid size-9 place-items-center rounded hover:bg-muted disabled:opacity-40";
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn("overflow-hidden rounded-md border border-border bg-white", isDragging && "relative z-10 shadow-lg ring-2 ring-primary")}
      data-photo={url}
    >
      <div className="relative aspect-[4/3] bg-muted">
        <img src={mediaUrlForWidth(url, 400)} alt={`Foto ${n}`} className="size-full object-cover" draggable={false} />
        {index === 0 && <span className="absolute left-1.5 top-1.5 rounded bg-primary px-1.5 py-0.5 text-xs font-semibold text-white">Capa</span>}
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`Arrastar foto ${n}`}
          className="absolute right-1.5 top-1.5 grid size-9 cursor-grab touch-none place-items-center rounded-full bg-white/90 text-foreground shadow active:cursor-grabbing"
        >
          <Icon name="grip-vertical" />
        </button>
      </div>
      <div className="flex items-center justify-between gap-1 p-1">
        <div className="flex">
          <button type="button" className={iconButton} onClick={() => onMove(-1)} disabled={index === 0}>
            <Icon name="arrow-left" label={`Mover foto ${n} para antes`} />
          </button>
          <button type="button" className={iconButton} onClick={() => onMove(1)} disabled={last}>
            <Icon name="arrow-right" label={`Mover foto ${n} para depois`} />
          </button>
        </div>
        <button type="button" className={cn(iconButton, "text-destructive hover:bg-red-50")} onClick={onRemove}>
          <Icon name="trash-2" label={`Remover foto ${n}`} />
        </button>
      </div>
      {index > 0 && (
        <button type="button" onClick={onCover} className="flex min-h-9 w-full items-center justify-center gap-1 border-t border-border px-2 text-xs font-medium text-primary hover:bg-primary/5" aria-label={`Definir como capa: foto ${n}`}>
          <Icon name="star" className="size-3.5" /> Definir como capa
        </button>
      )}
    </li>
  );
}
