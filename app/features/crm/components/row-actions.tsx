import { Icon } from "~/components/ui/icon";

/** Edit and delete buttons of a CRM table row; `subject` names the row for screen readers. */
export function RowActions({ subject, onEdit, onDelete }: { subject: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <div className="flex gap-1">
      <button type="button" onClick={onEdit} className="grid size-10 place-items-center rounded-md hover:bg-muted">
        <Icon name="pencil" className="size-4" label={`Editar ${subject}`} />
      </button>
      <button type="button" onClick={onDelete} className="grid size-10 place-items-center rounded-md text-destructive hover:bg-red-50">
        <Icon name="trash-2" className="size-4" label={`Excluir ${subject}`} />
      </button>
    </div>
  );
}
