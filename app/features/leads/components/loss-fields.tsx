import type { ComponentProps } from "react";
import { FormField } from "~/components/ui/form-field";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { LOST_NOTE_MAX } from "../loss";

/**
 * 'Motivo da perda' and its optional note (issue 24), wherever a lead can become 'perdido': the
 * table's dialog, the board's dialog, the lead page. The list comes from the settings; a reason
 * the lead already has but the list no longer offers is still shown, so saving keeps it.
 */
export function LossFields({
  reasons,
  current,
  reasonError,
  noteError,
  selectProps,
  noteProps,
  noteLength,
}: {
  reasons: string[];
  /** The lead's stored reason, offered even when the list no longer has it. */
  current?: string | null;
  reasonError?: string;
  noteError?: string;
  selectProps: ComponentProps<typeof NativeSelect>;
  noteProps: ComponentProps<typeof Textarea>;
  noteLength?: number;
}) {
  const options = current && !reasons.includes(current) ? [...reasons, current] : reasons;
  return (
    <div className="grid gap-4 rounded-md border border-red-200 bg-red-50/50 p-3" data-loss-fields>
      <FormField label="Motivo da perda" error={reasonError}>
        <NativeSelect required {...selectProps}>
          <option value="">Selecione o motivo…</option>
          {options.map((reason) => (
            <option key={reason} value={reason}>
              {reason}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <FormField label="Observação da perda (opcional)" error={noteError} hint={noteLength === undefined ? undefined : `${noteLength}/${LOST_NOTE_MAX} caracteres`}>
        <Textarea rows={2} maxLength={LOST_NOTE_MAX} placeholder="Ex.: achou o condomínio caro" {...noteProps} />
      </FormField>
    </div>
  );
}
