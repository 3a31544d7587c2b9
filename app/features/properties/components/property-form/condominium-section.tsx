import { useFormContext, useWatch } from "react-hook-form";
import { hasFloors, type PropertyFormInput } from "../../crm-schema";
import { CountField, FormSection } from "./controls";
import { FeatureToggles } from "./feature-toggles";

/** Condomínio: the building's floors (flats and commercial units) and the shared amenities. */
export function CondominiumSection() {
  const { control } = useFormContext<PropertyFormInput>();
  const type = useWatch({ control, name: "type" });
  return (
    <FormSection id="condominio" title="Condomínio" hint="O valor do condomínio fica em Valores.">
      {hasFloors(type) && (
        <div className="grid items-start grid-cols-2 gap-4">
          <CountField name="floor" label="Andar" hint="0 para térreo." />
          <CountField name="total_floors" label="Total de andares" min={1} />
        </div>
      )}
      <FeatureToggles group="condominio" />
    </FormSection>
  );
}
