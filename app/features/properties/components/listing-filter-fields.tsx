import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { AREA_LIMIT, CONDO_FEE_LIMIT, FILTER_ALL, SUITE_OPTIONS, type ListFilters } from "../filters";

/** A feature the list can be filtered on, labelled by the loader (the catalogue stays on the server). */
export type FeatureOption = { key: string; label: string };

type Change = (patch: Partial<ListFilters>, options?: { wait?: boolean }) => void;

/**
 * Issue 22's filters inside the list's filter form (decision 017): suítes, área útil, condomínio,
 * the common features with the rest under 'Mais filtros', financing, furnished, and sold/rented.
 * Plain named controls: without JavaScript the form sends them as a GET, repeated `carac` included.
 */
export function ListingFilterFields({
  draft,
  change,
  common,
  more,
}: {
  draft: ListFilters;
  change: Change;
  common: FeatureOption[];
  more: FeatureOption[];
}) {
  const number = (value: string) => (value === "" ? null : Math.max(0, Math.trunc(Number(value))) || null);
  const toggle = (key: string, on: boolean) =>
    change({ carac: (on ? [...draft.carac, key] : draft.carac.filter((chosen) => chosen !== key)) as ListFilters["carac"] });
  const box = (option: FeatureOption) => (
    <label key={option.key} className="flex min-h-8 items-center gap-2 text-sm">
      <input
        type="checkbox"
        name="carac"
        value={option.key}
        className="size-4 accent-primary"
        checked={draft.carac.includes(option.key as ListFilters["carac"][number])}
        onChange={(event) => toggle(option.key, event.target.checked)}
      />
      {option.label}
    </label>
  );
  const switchBox = (name: "financiamento" | "mobiliado" | "vendidos", label: string) => (
    <label className="flex min-h-8 items-center gap-2 text-sm">
      <input
        type="checkbox"
        name={name}
        value="1"
        className="size-4 accent-primary"
        checked={draft[name]}
        onChange={(event) => change({ [name]: event.target.checked })}
      />
      {label}
    </label>
  );
  const moreChosen = more.some((option) => draft.carac.includes(option.key as ListFilters["carac"][number]));

  return (
    <>
      <div className="grid grid-cols-2 gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="filter-suites">Suítes</Label>
          <NativeSelect id="filter-suites" name="suites" value={draft.suites} onChange={(event) => change({ suites: event.target.value as ListFilters["suites"] })}>
            <option value={FILTER_ALL}>Qualquer</option>
            {SUITE_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {option}+
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>

      <div className="grid gap-1.5">
        <Label htmlFor="filter-condominio">Condomínio até (R$/mês)</Label>
        <Input
          id="filter-condominio"
          name="condominio_max"
          type="number"
          inputMode="numeric"
          min={1}
          max={CONDO_FEE_LIMIT}
          step={1}
          value={draft.condominioMax ?? ""}
          onChange={(event) => change({ condominioMax: number(event.target.value) }, { wait: true })}
        />
      </div>

      <fieldset className="grid grid-cols-2 gap-3">
        <legend className="mb-1.5 text-sm font-medium">Área útil (m²)</legend>
        <div className="grid gap-1">
          <Label htmlFor="filter-area-min" className="text-xs text-muted-foreground">
            Mínima
          </Label>
          <Input
            id="filter-area-min"
            name="area_min"
            type="number"
            inputMode="numeric"
            min={1}
            max={AREA_LIMIT}
            step={1}
            value={draft.areaMin ?? ""}
            onChange={(event) => change({ areaMin: number(event.target.value) }, { wait: true })}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="filter-area-max" className="text-xs text-muted-foreground">
            Máxima
          </Label>
          <Input
            id="filter-area-max"
            name="area_max"
            type="number"
            inputMode="numeric"
            min={1}
            max={AREA_LIMIT}
            step={1}
            value={draft.areaMax ?? ""}
            onChange={(event) => change({ areaMax: number(event.target.value) }, { wait: true })}
          />
        </div>
      </fieldset>

      <fieldset className="grid gap-1">
        <legend className="mb-1 text-sm font-medium">Características</legend>
        {common.map(box)}
        {more.length > 0 && (
          <details className="mt-1" open={moreChosen || undefined}>
            <summary className="cursor-pointer py-1 text-sm font-medium text-primary">Mais filtros</summary>
            <div className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1 lg:grid-cols-1">{more.map(box)}</div>
          </details>
        )}
      </fieldset>

      <fieldset className="grid gap-1">
        <legend className="mb-1 text-sm font-medium">Condições</legend>
        {switchBox("financiamento", "Aceita financiamento")}
        {switchBox("mobiliado", "Mobiliado")}
        {switchBox("vendidos", "Mostrar vendidos/alugados")}
      </fieldset>
    </>
  );
}
