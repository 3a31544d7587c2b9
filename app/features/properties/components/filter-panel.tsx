import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { formatBRL } from "~/lib/format";
import { cn } from "~/lib/utils";
import {
  BEDROOM_OPTIONS,
  CODIGO_MAX,
  FILTER_ALL,
  PARKING_OPTIONS,
  PRICE_MAX,
  PRICE_MIN,
  PRICE_STEP,
  type ListFilters,
} from "../filters";
import { type FeatureOption, ListingFilterFields } from "./listing-filter-fields";
import { PropertyTypeOptions } from "./property-type-options";

/** How long typing in the neighbourhood box waits before the list follows (spec §9: 300 ms). */
export const FILTER_DELAY_MS = 300;

export function priceLabel(value: number): string {
  return value >= PRICE_MAX ? `${formatBRL(PRICE_MAX)}+` : formatBRL(value);
}

/**
 * The list's six filters and the code. Each change goes to the URL at once (the neighbourhood
 * after a short pause in typing, the code when submitted); the URL is the filter state. Without
 * JavaScript it is a GET form.
 */
export function FilterPanel({
  filters,
  onApply,
  activeCount,
  featureOptions,
}: {
  filters: ListFilters;
  onApply: (next: ListFilters) => void;
  activeCount: number;
  /** Issue 22: the features to filter on, labelled by the loader. */
  featureOptions: { common: FeatureOption[]; more: FeatureOption[] };
}) {
  const [draft, setDraft] = useState(filters);
  const [open, setOpen] = useState(false);
  const typing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(typing.current), []);

  function change(patch: Partial<ListFilters>, { wait = false, apply = true } = {}) {
    const next = { ...draft, ...patch };
    setDraft(next);
    clearTimeout(typing.current);
    if (!apply) return;
    if (wait) typing.current = setTimeout(() => onApply(next), FILTER_DELAY_MS);
    else onApply(next);
  }

  /**
   * React's onChange follows the drag: it moves the label only. The list follows when the thumb
   * is let go (pointer or keyboard), so one drag is one change in the URL, not fifty.
   */
  function priceSliderProps(key: "precoMin" | "precoMax") {
    const clamp = (raw: string) =>
      key === "precoMin" ? Math.min(Number(raw), draft.precoMax) : Math.max(Number(raw), draft.precoMin);
    const commit = (event: { currentTarget: HTMLInputElement }) => change({ [key]: clamp(event.currentTarget.value) });
    return {
      value: draft[key],
      "aria-valuetext": priceLabel(draft[key]),
      onChange: (event: ChangeEvent<HTMLInputElement>) => change({ [key]: clamp(event.currentTarget.value) }, { apply: false }),
      onPointerUp: commit,
      onKeyUp: commit,
    };
  }

  return (
    <div className="rounded-lg border border-border bg-white shadow-sm">
      <button
        type="button"
        className="flex w-full items-center justify-between gap-2 px-4 py-3 text-left font-semibold lg:hidden"
        aria-expanded={open}
        aria-controls="filter-panel"
        onClick={() => setOpen((value) => !value)}
      >
        <span className="flex items-center gap-2">
          <Icon name="sliders-horizontal" className="size-5 text-primary" />
          Filtros{activeCount > 0 ? ` (${activeCount})` : ""}
        </span>
        <Icon name="chevron-down" className={cn("size-5 transition-transform", open && "rotate-180")} />
      </button>

      <Form
        id="filter-panel"
        method="get"
        action="/imoveis"
        role="search"
        aria-label="Filtrar imóveis"
        className={cn("grid gap-4 border-t border-border p-4 lg:border-t-0", open ? "grid" : "hidden lg:grid")}
        onSubmit={(event) => {
          // With JavaScript the list already follows every change; the button only closes the panel.
          event.preventDefault();
          clearTimeout(typing.current);
          onApply(draft);
          setOpen(false);
        }}
      >
        <h2 className="hidden text-lg font-semibold lg:block">Filtros</h2>

        {/* A code is searched when asked (Enter or the button), not while typing: an exact code
            opens that listing's page, which must not happen halfway through typing another. */}
        <div className="grid gap-1.5">
          <Label htmlFor="filter-codigo">Código</Label>
          <div className="flex gap-2">
            <Input
              id="filter-codigo"
              name="codigo"
              type="search"
              placeholder="Ex.: AP-PN-101"
              autoComplete="off"
              maxLength={CODIGO_MAX}
              value={draft.codigo}
              onChange={(event) => change({ codigo: event.target.value }, { apply: false })}
            />
            <Button type="submit" variant="outline" size="icon" className="shrink-0" aria-label="Buscar pelo código">
              <Icon name="search" />
            </Button>
          </div>
        </div>

        <div className="grid gap-1.5">
          <Label htmlFor="filter-tipo">Tipo</Label>
          <NativeSelect id="filter-tipo" name="tipo" value={draft.tipo} onChange={(event) => change({ tipo: event.target.value as ListFilters["tipo"] })}>
            <option value={FILTER_ALL}>Todos</option>
            <PropertyTypeOptions />
          </NativeSelect>
        </div>

        <div className="grid gap-1.5">
          <Label htmlFor="filter-finalidade">Finalidade</Label>
          <NativeSelect
            id="filter-finalidade"
            name="finalidade"
            value={draft.finalidade}
            onChange={(event) => change({ finalidade: event.target.value as ListFilters["finalidade"] })}
          >
            <option value={FILTER_ALL}>Todas</option>
            <option value="venda">Comprar</option>
            <option value="aluguel">Alugar</option>
          </NativeSelect>
        </div>

        <div className="grid gap-1.5">
          <Label htmlFor="filter-bairro">Bairro</Label>
          <Input
            id="filter-bairro"
            name="bairro"
            type="search"
            placeholder="Ex.: Petrópolis"
            autoComplete="off"
            maxLength={100}
            value={draft.bairro}
            onChange={(event) => change({ bairro: event.target.value }, { wait: true })}
          />
        </div>

        <div className="grid grid-cols-2 gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor="filter-quartos">Quartos</Label>
            <NativeSelect id="filter-quartos" name="quartos" value={draft.quartos} onChange={(event) => change({ quartos: event.target.value as ListFilters["quartos"] })}>
              <option value={FILTER_ALL}>Qualquer</option>
              {BEDROOM_OPTIONS.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="filter-vagas">Vagas</Label>
            <NativeSelect id="filter-vagas" name="vagas" value={draft.vagas} onChange={(event) => change({ vagas: event.target.value as ListFilters["vagas"] })}>
              <option value={FILTER_ALL}>Qualquer</option>
              {PARKING_OPTIONS.map((option) => (
                <option key={option} value={option}>
                  {option}+
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>

        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">Faixa de preço</legend>
          <p className="text-sm font-semibold text-primary" aria-live="polite">
            {priceLabel(draft.precoMin)} – {priceLabel(draft.precoMax)}
          </p>
          <Label htmlFor="filter-preco-min" className="text-xs text-muted-foreground">
            Preço mínimo
          </Label>
          <input
            id="filter-preco-min"
            name="preco_min"
            type="range"
            min={PRICE_MIN}
            max={PRICE_MAX}
            step={PRICE_STEP}
            className="w-full accent-primary"
            {...priceSliderProps("precoMin")}
          />
          <Label htmlFor="filter-preco-max" className="text-xs text-muted-foreground">
            Preço máximo
          </Label>
          <input
            id="filter-preco-max"
            name="preco_max"
            type="range"
            min={PRICE_MIN}
            max={PRICE_MAX}
            step={PRICE_STEP}
            className="w-full accent-primary"
            {...priceSliderProps("precoMax")}
          />
        </fieldset>

        <ListingFilterFields draft={draft} change={change} common={featureOptions.common} more={featureOptions.more} />

        <div className="flex gap-2">
          <Button type="submit" className="flex-1 lg:hidden">
            Ver resultados
          </Button>
          {/* 'Limpar': back to the plain list; a link, so it works before JavaScript too. */}
          <Link to="/imoveis" replace preventScrollReset className={cn(buttonClass("outline"), "flex-1")}>
            <Icon name="x" /> Limpar
          </Link>
        </div>
      </Form>
    </div>
  );
}
