import { useState } from "react";
import { Icon } from "~/components/ui/icon";

/**
 * The list editors of the settings page (the WhatsApp message templates, the lost reasons): rows
 * edited in place, moved up and down, removed and added, then saved together. `key` stays the same
 * while the broker types, so React keeps each row's inputs.
 */

export type Keyed<T> = T & { key: string };

let nextKey = 0;
const keyed = <T extends object>(item: T): Keyed<T> => ({ ...item, key: `row-${nextKey++}` });

export function useListEditor<T extends object>(items: T[]) {
  const [rows, setRows] = useState(() => items.map(keyed));
  return {
    rows,
    /** The saved list again (after a save, the server's copy). */
    reset: (next: T[]) => setRows(next.map(keyed)),
    update: (key: string, change: Partial<T>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row))),
    move: (index: number, step: -1 | 1) =>
      setRows((current) => {
        const target = index + step;
        if (target < 0 || target >= current.length) return current;
        const next = [...current];
        [next[index], next[target]] = [next[target], next[index]];
        return next;
      }),
    remove: (key: string) => setRows((current) => current.filter((row) => row.key !== key)),
    add: (item: T) => setRows((current) => [...current, keyed(item)]),
  };
}

/** Up, down and remove for row `index` (1-based in the labels: "Mover motivo 2 para cima"). */
export function RowButtons({
  noun,
  index,
  count,
  editor,
  rowKey,
  canRemove = true,
}: {
  noun: string;
  index: number;
  count: number;
  editor: { move: (index: number, step: -1 | 1) => void; remove: (key: string) => void };
  rowKey: string;
  canRemove?: boolean;
}) {
  return (
    <div className="flex">
      <button type="button" className="grid size-11 place-items-center rounded hover:bg-muted disabled:opacity-40" onClick={() => editor.move(index, -1)} disabled={index === 0}>
        <Icon name="arrow-up" label={`Mover ${noun} ${index + 1} para cima`} />
      </button>
      <button type="button" className="grid size-11 place-items-center rounded hover:bg-muted disabled:opacity-40" onClick={() => editor.move(index, 1)} disabled={index === count - 1}>
        <Icon name="arrow-down" label={`Mover ${noun} ${index + 1} para baixo`} />
      </button>
      <button
        type="button"
        className="grid size-11 place-items-center rounded text-destructive hover:bg-red-50 disabled:opacity-40"
        onClick={() => editor.remove(rowKey)}
        disabled={!canRemove}
      >
        <Icon name="trash-2" label={`Remover ${noun} ${index + 1}`} />
      </button>
    </div>
  );
}
