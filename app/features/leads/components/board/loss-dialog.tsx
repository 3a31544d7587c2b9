import { useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import type { BoardLead } from "../../board.server";
import { LOSS_MESSAGES, LOST_NOTE_MAX } from "../../loss";
import { LossFields } from "../loss-fields";

export type LossAnswer = { lost_reason: string; lost_note: string };

/**
 * Asked before a card goes to 'Perdido' (issue 24), whether it was dragged there (mouse, touch,
 * keyboard) or chosen in its 'Mover para…' menu. Nothing moves until a reason is chosen;
 * 'Cancelar', Esc or closing leaves the card where it was.
 */
export function LossDialog({
  lead,
  reasons,
  onConfirm,
  onCancel,
}: {
  lead: BoardLead | null;
  reasons: string[];
  onConfirm: (lead: BoardLead, answer: LossAnswer) => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState("");
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | undefined>();
  const select = useRef<HTMLSelectElement>(null);
  const reset = () => {
    setReason("");
    setNote("");
    setError(undefined);
  };
  return (
    <Dialog
      open={lead !== null}
      onOpenChange={(open) => {
        if (!open) {
          reset();
          onCancel();
        }
      }}
    >
      {lead && (
        <DialogContent
          title="Por que este lead foi perdido?"
          description={`${lead.full_name} vai para Perdido.`}
          // The reason first: the keyboard user who dropped the card chooses at once.
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            select.current?.focus();
          }}
          footer={
            <>
              <Button
                variant="outline"
                onClick={() => {
                  reset();
                  onCancel();
                }}
              >
                Cancelar
              </Button>
              <Button type="submit" form="loss-form">
                Mover para Perdido
              </Button>
            </>
          }
        >
          <form
            id="loss-form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (!reason) {
                setError(LOSS_MESSAGES.reasonRequired);
                select.current?.focus();
                return;
              }
              const answer = { lost_reason: reason, lost_note: note.trim().slice(0, LOST_NOTE_MAX) };
              reset();
              onConfirm(lead, answer);
            }}
          >
            <LossFields
              reasons={reasons}
              reasonError={error}
              noteLength={note.length}
              selectProps={{ ref: select, name: "lost_reason", value: reason, onChange: (event) => setReason(event.target.value) }}
              noteProps={{ name: "lost_note", value: note, onChange: (event) => setNote(event.target.value) }}
            />
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
