import { useState } from "react";
import { Form, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { PERIOD_LABELS, PERIOD_PRESETS, type PeriodPreset } from "../period";

/**
 * The period of every report, in the URL (?periodo=…&de=…&ate=…): a GET form, so it works before
 * the JavaScript arrives and a link keeps the period. Choosing a preset applies it at once; the
 * dates show the period's range, and changing one makes it a custom range, applied by "Aplicar".
 */
export function PeriodSelector({ preset, from, to }: { preset: PeriodPreset; from: string; to: string }) {
  const submit = useSubmit();
  const [chosen, setChosen] = useState<PeriodPreset>(preset);
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Período dos relatórios" data-testid="period-form">
      <div className="grid min-w-44 gap-1.5">
        <Label htmlFor="report-period">Período</Label>
        <NativeSelect
          id="report-period"
          name="periodo"
          value={chosen}
          onChange={(event) => {
            const value = event.currentTarget.value as PeriodPreset;
            setChosen(value);
            if (value !== "personalizado") submit({ periodo: value }, { method: "get", replace: true });
          }}
        >
          {PERIOD_PRESETS.map((value) => (
            <option key={value} value={value}>
              {PERIOD_LABELS[value]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="report-from">De</Label>
        <Input id="report-from" name="de" type="date" defaultValue={from} min="2000-01-01" max="2100-12-31" className="w-40" onChange={() => setChosen("personalizado")} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="report-to">Até</Label>
        <Input id="report-to" name="ate" type="date" defaultValue={to} min="2000-01-01" max="2100-12-31" className="w-40" onChange={() => setChosen("personalizado")} />
      </div>
      <Button type="submit" variant="outline">
        Aplicar
      </Button>
    </Form>
  );
}
