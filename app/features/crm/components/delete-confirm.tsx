import { useState } from "react";
import { useFetcher } from "react-router";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { type ActionAnswer, useAnswerToast } from "../form-helpers";

/** "Tem certeza…?" then the delete intent posted to the page's action, its answer as a toast. */
export function DeleteConfirm<T extends { id: string }>({
  record,
  onClose,
  action,
  title,
  describe,
}: {
  record: T | undefined;
  onClose: () => void;
  action: string;
  title: string;
  describe: (record: T) => string;
}) {
  const fetcher = useFetcher<ActionAnswer>({ key: `delete-${action}` });
  useAnswerToast(fetcher, onClose);
  return (
    <ConfirmDialog
      open={record !== undefined}
      onOpenChange={(open) => !open && fetcher.state === "idle" && onClose()}
      title={title}
      description={record ? describe(record) : undefined}
      confirmLabel="Excluir"
      busy={fetcher.state !== "idle"}
      onConfirm={() => record && fetcher.submit({ intent: "delete", id: record.id }, { method: "post", action, encType: "application/json" })}
    />
  );
}

/** The state a CRM table page keeps: which record the form dialog shows, which one may be deleted. */
export function useRecordDialogs<T>() {
  const [editing, setEditing] = useState<T | undefined>();
  const [formOpen, setFormOpen] = useState(false);
  const [deleting, setDeleting] = useState<T | undefined>();
  return {
    editing,
    formOpen,
    setFormOpen,
    deleting,
    startNew: () => {
      setEditing(undefined);
      setFormOpen(true);
    },
    startEdit: (record: T) => {
      setEditing(record);
      setFormOpen(true);
    },
    askDelete: (record: T) => setDeleting(record),
    closeDelete: () => setDeleting(undefined),
  };
}
