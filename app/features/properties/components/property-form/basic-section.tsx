import { useFormContext } from "react-hook-form";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { PROPERTY_PURPOSES, PROPERTY_STATUSES } from "~/db/values";
import type { PropertyFormInput } from "../../crm-schema";
import { PURPOSE_LABELS, STATUS_LABELS } from "../../labels";
import { PropertyTypeOptions } from "../property-type-options";
import { CheckboxField, FormSection, useErrorOf } from "./controls";

/** Básico: what every listing needs (spec §3 and §5). */
export function BasicSection() {
  const { register } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  return (
    <FormSection id="basico" title="Básico">
      <div className="grid items-start gap-4 sm:grid-cols-[10rem_1fr]">
        <FormField label="Código" error={errorOf("codigo")}>
          <Input
            autoComplete="off"
            maxLength={50}
            {...register("codigo", {
              // Forced to uppercase as it is typed (spec §3).
              onChange: (event) => {
                event.target.value = event.target.value.toUpperCase();
              },
            })}
          />
        </FormField>
        <FormField label="Título" error={errorOf("title")}>
          <Input maxLength={200} {...register("title")} />
        </FormField>
      </div>
      <FormField label="Descrição" error={errorOf("description")} hint="Os portais dão mais destaque a descrições com 300 caracteres ou mais.">
        <Textarea rows={5} maxLength={2000} {...register("description")} />
      </FormField>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <FormField label="Tipo" error={errorOf("type")}>
          <NativeSelect {...register("type")}>
            <option value="">Selecione</option>
            <PropertyTypeOptions />
          </NativeSelect>
        </FormField>
        <FormField label="Finalidade" error={errorOf("purpose")}>
          <NativeSelect {...register("purpose")}>
            <option value="">Selecione</option>
            {PROPERTY_PURPOSES.map((purpose) => (
              <option key={purpose} value={purpose}>
                {PURPOSE_LABELS[purpose]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label="Status" error={errorOf("status")}>
          <NativeSelect {...register("status")}>
            {PROPERTY_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>
      <CheckboxField name="featured" label="Destaque na página inicial" />
      <FormField label="Corretor parceiro" error={errorOf("broker_partner")} hint="Uso interno: não aparece no site.">
        <Input maxLength={100} {...register("broker_partner")} />
      </FormField>
    </FormSection>
  );
}
