import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { useAnswerToast } from "~/features/crm/form-helpers";
import type { SettingsAnswer } from "../keys";
import { MAX_LOST_REASON_LENGTH, MAX_LOST_REASONS } from "../lost-reasons";
import { RowButtons, useListEditor } from "./list-editor";
import { SectionStatus, useSectionChanges } from "./unsaved-changes";

const toItems = (reasons: string[]) => reasons.map((label) => ({ label }));

/**
 * The reasons offered when a lead is lost (issue 24): add, rename, reorder, remove, then save.
 * Leads keep the label they were lost for, so removing one here changes no lead.
 */
export function LostReasonsForm({ reasons, onDirtyChange }: { reasons: string[]; onDirtyChange: (dirty: boolean) => void }) {
  const fetcher = useFetcher<SettingsAnswer>();
  const changes = useSectionChanges(fetcher, "lost-reasons", onDirtyChange);
  const editor = useListEditor(toItems(reasons));
  const rows = editor.rows;
  useAnswerToast({ state: fetcher.state, data: fetcher.data?.intent === "lost-reasons" ? fetcher.data : undefined }, () => editor.reset(toItems(reasons)));
  const errors = fetcher.state === "idle" && fetcher.data?.intent === "lost-reasons" ? (fetcher.data.errors ?? {}) : {};

  return (
    <Card className="p-4 sm:p-6" data-section="lost-reasons">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Motivos de perda</h2>
        <SectionStatus state={changes.state} />
      </div>
      <p className="mt-1 text-sm text-muted-foreground">
        Perguntados quando um lead passa a Perdido, e contados nos relatórios. Um motivo removido continua aparecendo nos leads que já o usam.
      </p>
      <fetcher.Form ref={changes.formRef} onInput={changes.onInput} method="post" action="/crm/configuracoes" noValidate className="mt-5 grid gap-3">
        <input type="hidden" name="intent" value="lost-reasons" />
        {errors.reasons && <p className="text-sm font-medium text-destructive">{errors.reasons}</p>}
        <ol className="grid gap-2">
          {rows.map((row, index) => (
            <li key={row.key} className="flex flex-wrap items-end gap-2">
              <FormField label={`Motivo ${index + 1}`} error={errors[`reasons.${index}`]} className="min-w-0 flex-1 basis-56">
                <Input
                  name={`reasons.${index}`}
                  value={row.label}
                  maxLength={MAX_LOST_REASON_LENGTH}
                  required
                  onChange={(event) => editor.update(row.key, { label: event.currentTarget.value })}
                />
              </FormField>
              <RowButtons noun="motivo" index={index} count={rows.length} editor={editor} rowKey={row.key} canRemove={rows.length > 1} />
            </li>
          ))}
        </ol>
        <div className="flex flex-wrap gap-3">
          <Button variant="outline" onClick={() => editor.add({ label: "" })} disabled={rows.length >= MAX_LOST_REASONS}>
            <Icon name="plus" />
            Adicionar motivo
          </Button>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            <Icon name="check" />
            {fetcher.state !== "idle" ? "Salvando..." : "Salvar motivos"}
          </Button>
        </div>
        {rows.length >= MAX_LOST_REASONS && <p className="text-xs text-muted-foreground">Máximo de {MAX_LOST_REASONS} motivos.</p>}
      </fetcher.Form>
    </Card>
  );
}
