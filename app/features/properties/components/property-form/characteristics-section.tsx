import { useFormContext } from "react-hook-form";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { FURNISHED_VALUES } from "~/db/values";
import type { PropertyFormInput } from "../../crm-schema";
import { FURNISHED_LABELS } from "../../labels";
import { latestYearBuilt } from "../../listing-schema";
import { CountField, FormSection, useErrorOf, YesNoField } from "./controls";
import { FeatureToggles } from "./feature-toggles";

/** Características: areas, rooms, age, furniture, pets and the home's own features. */
export function CharacteristicsSection() {
  const { register } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  return (
    <FormSection id="caracteristicas" title="Características">
      <div className="grid items-start grid-cols-2 gap-4">
        <FormField label="Área útil (m²)" error={errorOf("area")} hint="A área privativa, dentro das paredes. Terreno: a área do lote.">
          <Input inputMode="decimal" {...register("area")} />
        </FormField>
        <FormField label="Área total (m²)" error={errorOf("total_area")} hint="Apartamento: privativa + comum. Casa: o terreno.">
          <Input inputMode="decimal" {...register("total_area")} />
        </FormField>
      </div>
      <div className="grid items-start grid-cols-2 gap-4 sm:grid-cols-4">
        <CountField name="bedrooms" label="Quartos" />
        <CountField name="suites" label="Suítes" />
        <CountField name="bathrooms" label="Banheiros" />
        <CountField name="parking_spaces" label="Vagas" />
      </div>
      <div className="grid items-start grid-cols-2 gap-4">
        <CountField name="year_built" label="Ano de construção" min={1850} hint={`Até ${latestYearBuilt()} para lançamentos.`} />
        <FormField label="Mobília" error={errorOf("furnished")}>
          <NativeSelect {...register("furnished")}>
            <option value="">Não informado</option>
            {FURNISHED_VALUES.map((value) => (
              <option key={value} value={value}>
                {FURNISHED_LABELS[value]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>
      <YesNoField name="pets_allowed" legend="Aceita animais" />
      <FeatureToggles group="imovel" />
    </FormSection>
  );
}
