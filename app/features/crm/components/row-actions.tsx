import type { ReactNode } from "react";
import { Icon } from "~/components/ui/icon";

/** Edit and delete buttons of a CRM table row (after any `before` actions); `subject` names the row for screen readers. */
export function RowActions({
  subject,
  onEdit,
  onDelete,
  before,
  compact = false,
}: {
  subject: string;
  onEdit: () => void;
  onDelete: () => void;
  before?: ReactNode;
  /** 32 px buttons, two to a row (a wide table's sticky column with up to four actions, mouse-sized). */
  compact?: boolean;
}) {
  const size = compact ? "size-8" : "size-10";
  return (
    <div className={compact ? "grid grid-cols-2" : "flex gap-1"}>
      {before}
      <button type="button" onClick={onEdit} className={`grid ${size} place-items-center rounded-md hover:bg-muted`}>
        <Icon name="pencil" className="size-4" label={`Editar ${subject}`} />
      </button>
      <button type="button" onClick={onDelete} className={`grid ${size} place-items-center rounded-md text-destructive hover:bg-red-50`}>
        <Icon name="trash-2" className="size-4" label={`Excluir ${subject}`} />
      </button>
    </div>
  );
}
