import { useId, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { FEATURE_GROUP_LABELS, FEATURES, type FeatureGroup, featureMatches, featuresOf } from "../../features";
import type { PropertyFormInput } from "../../crm-schema";
import { useErrorOf } from "./controls";

/**
 * One group of the feature catalogue as toggles, with a box that narrows them as the broker types
 * ("pisc" → Piscina). Every toggle stays in the form while hidden by the search, so a feature
 * chosen before a search is still saved.
 */
export function FeatureToggles({ group }: { group: FeatureGroup }) {
  const { register, control } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  const [query, setQuery] = useState("");
  const searchId = useId();
  const keys = featuresOf(group);
  const chosen = new Set(useWatch({ control, name: "features" }) ?? []);
  const count = keys.filter((key) => chosen.has(key)).length;
  const shown = keys.filter((key) => featureMatches(key, query));
  const groupLabel = FEATURE_GROUP_LABELS[group].toLowerCase();

  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">
        Características {groupLabel}
        <span className="font-normal text-muted-foreground"> ({count === 1 ? "1 marcada" : `${count} marcadas`})</span>
      </legend>
      <div className="relative">
        <label htmlFor={searchId} className="sr-only">
          Buscar nas características {groupLabel}
        </label>
        <Icon name="search" className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-muted-foreground" />
        <Input
          id={searchId}
          type="search"
          autoComplete="off"
          placeholder="Buscar característica"
          className="pl-9"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          // Enter in the search box narrows the list; it must not save the form.
          onKeyDown={(event) => event.key === "Enter" && event.preventDefault()}
        />
      </div>
      <ul className="grid grid-cols-1 gap-2 min-[380px]:grid-cols-2 sm:grid-cols-3" aria-label={`Características ${groupLabel}`}>
        {keys.map((key) => (
          <li key={key} hidden={!shown.includes(key)}>
            <label
              className={
                "flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-input bg-white px-3 py-2 text-sm " +
                "has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:checked]:font-semibold " +
                "has-[:focus-visible]:outline has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-ring"
              }
            >
              <input type="checkbox" value={key} className="size-4 shrink-0 accent-primary" {...register("features")} />
              <span className="min-w-0 break-words">{FEATURES[key].label}</span>
            </label>
          </li>
        ))}
      </ul>
      {shown.length === 0 && <p className="text-sm text-muted-foreground">Nenhuma característica com “{query.trim()}”.</p>}
      {group === "imovel" && errorOf("features") && <p className="text-xs font-medium text-destructive">{errorOf("features")}</p>}
    </fieldset>
  );
}
