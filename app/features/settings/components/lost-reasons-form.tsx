import { useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { useAnswerToast } from "~/features/crm/form-helpers";
import type { SettingsAnswer } from "../keys";
import { MAX_LOST_REASON_LENGTH, MAX_LOST_REASONS } from "../lost-reasons";
import { SectionStatus, useSectionChanges } from "./unsaved-changes";

type Row = { key: string; label: string };
let nextKey = 0;
const toRows = (reasons: string[]): Row[] => reasons.map((label) => ({ key: `reason-${nextKey++}`, label }));

/**
 * The reasons offered when a lead is lost (issue 24): add, rename, reorder, remove, then save.
 * Leads keep the label they were lost for, so removing one here changes no lead.
 */
export function LostReasonsForm({ reasons, onDirtyChange }: { reasons: string[]; onDirtyChange: (dirty: boolean) => void }) {
  const fetcher = useFetcher<SettingsAnswer>();
  const changes = useSectionChanges(fetcher, "lost-reasons", onDirtyChange);
  const [rows, setRows] = useState(() => toRows(reasons));
  useAnswerToast({ state: fetcher.state, data: fetcher.data?.intent === "lost-reasons" ? fetcher.data : undefined }, () => setRows(toRows(reasons)));
  const errors = fetcher.state === "idle" && fetcher.data?.intent === "lost-reasons" ? (fetcher.data.errors ?? {}) : {};
  const move = (index: number, step: -1 | 1) =>
    setRows((current) => {
      const target = index + step;
      if (target < 0 || target >= current.length) return current;
      const next = [...current];
      [next[index], next[target]] = [next[target], next[index]];
      return next;
    });

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
                  onChange={(event) => {
                    const label = event.currentTarget.value;
                    setRows((current) => current.map((item) => (item.key === row.key ? { ...item, label } : item)));
                  }}
                />
              </FormField>
              <div className="flex">
                <button type="button" className="grid size-11 place-items-center rounded hover:bg-muted disabled:opacity-40" onClick={() => move(index, -1)} disabled={index === 0}>
                  <Icon name="arrow-up" label={`Mover motivo ${index + 1} para cima`} />
                </button>
                <button type="button" className="grid size-11 place-items-center rounded hover:bg-muted disabled:opacity-40" onClick={() => move(index, 1)} disabled={index === rows.length - 1}>
                  <Icon name="arrow-down" label={`Mover motivo ${index + 1} para baixo`} />
                </button>
                <button
                  type="button"
                  className="grid size-11 place-items-center rounded text-destructive hover:bg-red-50 disabled:opacity-40"
                  onClick={() => setRows((current) => current.filter((item) => item.key !== row.key))}
                  disabled={rows.length === 1}
                >
                  <Icon name="trash-2" label={`Remover motivo ${index + 1}`} />
                </button>
              </div>
            </li>
          ))}
        </ol>
        <div className="flex flex-wrap gap-3">
          <Button variant="outline" onClick={() => setRows((current) => [...current, { key: `reason-${nextKey++}`, label: "" }])} disabled={rows.length >= MAX_LOST_REASONS}>
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
