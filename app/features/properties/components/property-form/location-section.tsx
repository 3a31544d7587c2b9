import { useFormContext } from "react-hook-form";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { maskCepInput, type PropertyFormInput } from "../../crm-schema";
import { CheckboxField, FormSection, useErrorOf } from "./controls";
import { PinPicker } from "../../map/components/pin-picker";
import { CepLookupButton } from "../../map/components/cep-lookup-button";
import type { TileConfig } from "../../map/tiles";

/** "-5.8812, -35.1776" as a map app copies it: the two numbers, or null. */
const PAIR = /^\s*(-?\d{1,3}(?:[.,]\d+)?)\s*[,;]\s+(-?\d{1,3}(?:[.,]\d+)?)\s*$|^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
export function splitCoordinates(text: string): [string, string] | null {
  const match = PAIR.exec(text);
  if (!match) return null;
  return match[1] !== undefined ? [match[1], match[2]] : [match[3], match[4]];
}

/** Localização: neighbourhood and city (required), the address (optional) and the map position. */
export function LocationSection({ mapTiles, cepLookup }: { mapTiles?: TileConfig; cepLookup?: boolean }) {
  const { register, setValue } = useFormContext<PropertyFormInput>();
  const errorOf = useErrorOf();
  return (
    <FormSection id="localizacao" title="Localização">
      <div className="grid items-start gap-4 sm:grid-cols-[1fr_1fr_6rem]">
        <FormField label="Bairro" error={errorOf("neighborhood")}>
          <Input maxLength={100} {...register("neighborhood")} />
        </FormField>
        <FormField label="Cidade" error={errorOf("city")}>
          <Input maxLength={100} {...register("city")} />
        </FormField>
        <FormField label="Estado" error={errorOf("state")}>
          <Input maxLength={2} {...register("state")} />
        </FormField>
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-[1fr_7rem]">
        <FormField label="Endereço" error={errorOf("street_address")} hint="Opcional: a rua.">
          <Input maxLength={200} autoComplete="off" {...register("street_address")} />
        </FormField>
        <FormField label="Número" error={errorOf("address_number")} hint="Ou S/N.">
          <Input maxLength={20} autoComplete="off" {...register("address_number")} />
        </FormField>
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-[1fr_9rem]">
        <FormField label="Complemento" error={errorOf("address_complement")} hint="Apartamento, bloco, torre.">
          <Input maxLength={100} autoComplete="off" {...register("address_complement")} />
        </FormField>
        <FormField label="CEP" error={errorOf("cep")} hint="Opcional.">
          <Input
            inputMode="numeric"
            autoComplete="off"
            maxLength={10}
            placeholder="00000-000"
            {...register("cep", {
              setValueAs: (value: unknown) => (typeof value === "string" ? maskCepInput(value) : value),
              onChange: (event) => {
                event.target.value = maskCepInput(event.target.value);
              },
            })}
          />
        </FormField>
      </div>
      {cepLookup && <CepLookupButton />}
      <CheckboxField
        name="display_address"
        label="Exibir endereço no site e nos portais"
        hint="Desligado, o site mostra só o bairro: a rua, o número, o complemento e a posição ficam só no CRM."
      />
      {/* Issue 22, item 4: the pin the broker drags; the two fields below are its keyboard way. */}
      {mapTiles && <PinPicker tiles={mapTiles} />}
      <div className="grid items-start grid-cols-2 gap-4">
        <FormField label="Latitude" error={errorOf("latitude")} hint="Opcional. Ex.: -5,8812.">
          <Input
            inputMode="text"
            autoComplete="off"
            {...register("latitude", {
              // "-5.8812, -35.1776" pasted from a map app fills both fields.
              onChange: (event) => {
                const pair = splitCoordinates(event.target.value);
                if (!pair) return;
                event.target.value = pair[0];
                setValue("latitude", pair[0]);
                setValue("longitude", pair[1], { shouldDirty: true });
              },
            })}
          />
        </FormField>
        <FormField label="Longitude" error={errorOf("longitude")} hint="Ex.: -35,1776. No mapa do celular: toque e segure o ponto e copie.">
          <Input inputMode="text" autoComplete="off" {...register("longitude")} />
        </FormField>
      </div>
    </FormSection>
  );
}
