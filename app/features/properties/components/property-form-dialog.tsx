import { zodResolver } from "@hookform/resolvers/zod";
import { useCallback, useId, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toaster";
import { type ActionAnswer, firstErrorMessage, useAnswerToast, useFillOnOpen } from "~/features/crm/form-helpers";
import { PROPERTY_PURPOSES, PROPERTY_STATUSES } from "~/db/values";
import { maskBRLInput, priceToInput } from "~/lib/money";
import { maskCepInput, PROPERTY_MESSAGES, propertyFormSchema, type PropertyFormInput, type PropertyFormValues } from "../crm-schema";
import type { CrmProperty } from "../crm.server";
import { PURPOSE_LABELS, STATUS_LABELS } from "../labels";
import { PhotoUploader } from "./photo-uploader";
import { PropertyTypeOptions } from "./property-type-options";

/** Field order: the first failing one is the one the toast names (spec §5). */
const FIELD_ORDER: (keyof PropertyFormInput)[] = [
  "codigo", "title", "description", "type", "purpose", "status", "price", "area", "bedrooms", "bathrooms",
  "parking_spaces", "neighborhood", "city", "state", "street_address", "cep", "broker_partner", "images",
];

function defaultsFor(property?: CrmProperty): PropertyFormInput {
  return {
    codigo: property?.codigo ?? "",
    title: property?.title ?? "",
    description: property?.description ?? "",
    type: property?.type ?? "",
    purpose: property?.purpose ?? "",
    status: property?.status ?? "disponivel",
    featured: property?.featured ?? false,
    price: property ? priceToInput(property.price) : "0,00",
    area: property?.area?.toString() ?? "",
    bedrooms: property?.bedrooms?.toString() ?? "",
    bathrooms: property?.bathrooms?.toString() ?? "",
    parking_spaces: property?.parking_spaces?.toString() ?? "",
    neighborhood: property?.neighborhood ?? "",
    city: property?.city ?? "Natal",
    state: property?.state ?? "RN",
    broker_partner: property?.broker_partner ?? "",
    images: property?.images ?? [],
    // On for a new listing: the portals are where most buyers search (issue 13).
    publish_to_portals: property?.publish_to_portals ?? true,
    street_address: property?.street_address ?? "",
    cep: property?.cep ?? "",
    display_address: property?.display_address ?? false,
  };
}

/**
 * 'Novo Imóvel' and edit: every field of spec §3 with the rules of §5, photos uploaded in the
 * dialog. Photos uploaded here and never saved are deleted when the dialog is cancelled.
 */
export function PropertyFormDialog({
  open,
  onOpenChange,
  property,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  property?: CrmProperty;
}) {
  const fetcher = useFetcher<ActionAnswer>({ key: `property-${property?.id ?? "new"}` });
  const [uploading, setUploading] = useState(false);
  const uploadedHere = useRef<string[]>([]);
  const saved = useRef(false);
  const form = useForm<PropertyFormInput, unknown, PropertyFormValues>({
    resolver: zodResolver(propertyFormSchema),
    defaultValues: defaultsFor(property),
  });
  const { register, control, handleSubmit, formState, reset } = form;
  const errors = formState.errors;
  const saving = fetcher.state !== "idle";
  const portalsHintId = useId();

  useFillOnOpen(open, property?.id ?? "new", () => {
    reset(defaultsFor(property));
    uploadedHere.current = [];
    saved.current = false;
  });

  useAnswerToast(fetcher, () => {
    saved.current = true;
    onOpenChange(false);
  });

  function close(nextOpen: boolean) {
    if (nextOpen) return onOpenChange(true);
    if (saving) return;
    // Cancelled: photos uploaded in this dialog and not saved go away (the server keeps any a
    // listing still shows).
    if (!saved.current && uploadedHere.current.length > 0) {
      void fetch("/crm/midia", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ intent: "discard", urls: uploadedHere.current }),
      });
      uploadedHere.current = [];
    }
    onOpenChange(false);
  }

  const onUploaded = useCallback((url: string) => uploadedHere.current.push(url), []);

  const submit = handleSubmit(
    (values) => {
      fetcher.submit(
        { intent: property ? "update" : "create", id: property?.id ?? null, values } as never,
        { method: "post", action: "/crm/imoveis", encType: "application/json" },
      );
    },
    (fieldErrors) => toast.error(firstErrorMessage(fieldErrors, FIELD_ORDER, PROPERTY_MESSAGES.saveFailed)),
  );

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        title={property ? "Editar Imóvel" : "Novo Imóvel"}
        description={property ? `Código ${property.codigo}` : "Preencha os dados do imóvel."}
        footer={
          <>
            <Button variant="outline" onClick={() => close(false)} disabled={saving}>
              Cancelar
            </Button>
            <Button type="submit" form="property-form" disabled={saving || uploading}>
              {saving ? "Salvando..." : uploading ? "Aguardando fotos..." : property ? "Salvar Alterações" : "Cadastrar Imóvel"}
            </Button>
          </>
        }
      >
        <form id="property-form" onSubmit={submit} noValidate className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
            <FormField label="Código" error={errors.codigo?.message}>
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
            <FormField label="Título" error={errors.title?.message}>
              <Input maxLength={200} {...register("title")} />
            </FormField>
          </div>
          <FormField label="Descrição" error={errors.description?.message}>
            <Textarea rows={4} maxLength={2000} {...register("description")} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-3">
            <FormField label="Tipo" error={errors.type?.message}>
              <NativeSelect {...register("type")}>
                <option value="">Selecione</option>
                <PropertyTypeOptions />
              </NativeSelect>
            </FormField>
            <FormField label="Finalidade" error={errors.purpose?.message}>
              <NativeSelect {...register("purpose")}>
                <option value="">Selecione</option>
                {PROPERTY_PURPOSES.map((purpose) => (
                  <option key={purpose} value={purpose}>
                    {PURPOSE_LABELS[purpose]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField label="Status" error={errors.status?.message}>
              <NativeSelect {...register("status")}>
                {PROPERTY_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {STATUS_LABELS[status]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Preço (R$)" error={errors.price?.message} hint="Digite só números: os dois últimos são os centavos.">
              <Input
                inputMode="numeric"
                autoComplete="off"
                {...register("price", {
                  onChange: (event) => {
                    event.target.value = maskBRLInput(event.target.value);
                  },
                })}
              />
            </FormField>
            <FormField label="Área (m²)" error={errors.area?.message}>
              <Input inputMode="decimal" {...register("area")} />
            </FormField>
          </div>
          <div className="grid grid-cols-3 gap-4">
            <FormField label="Quartos" error={errors.bedrooms?.message}>
              <Input type="number" min={0} inputMode="numeric" {...register("bedrooms")} />
            </FormField>
            <FormField label="Banheiros" error={errors.bathrooms?.message}>
              <Input type="number" min={0} inputMode="numeric" {...register("bathrooms")} />
            </FormField>
            <FormField label="Vagas" error={errors.parking_spaces?.message}>
              <Input type="number" min={0} inputMode="numeric" {...register("parking_spaces")} />
            </FormField>
          </div>
          <div className="grid gap-4 sm:grid-cols-[1fr_1fr_6rem]">
            <FormField label="Bairro" error={errors.neighborhood?.message}>
              <Input maxLength={100} {...register("neighborhood")} />
            </FormField>
            <FormField label="Cidade" error={errors.city?.message}>
              <Input maxLength={100} {...register("city")} />
            </FormField>
            <FormField label="Estado" error={errors.state?.message}>
              <Input maxLength={2} {...register("state")} />
            </FormField>
          </div>
          <div className="grid gap-4 sm:grid-cols-[1fr_9rem]">
            <FormField label="Endereço" error={errors.street_address?.message} hint="Opcional: rua e número.">
              <Input maxLength={200} autoComplete="off" {...register("street_address")} />
            </FormField>
            <FormField label="CEP" error={errors.cep?.message} hint="Opcional.">
              <Input
                inputMode="numeric"
                autoComplete="off"
                maxLength={10}
                placeholder="00000-000"
                {...register("cep", {
                  onChange: (event) => {
                    event.target.value = maskCepInput(event.target.value);
                  },
                })}
              />
            </FormField>
          </div>
          <label className="flex items-center gap-3 text-sm font-medium">
            <input type="checkbox" className="size-5 accent-primary" {...register("display_address")} />
            Exibir endereço no site e nos portais
          </label>
          <FormField label="Corretor parceiro" error={errors.broker_partner?.message} hint="Uso interno: não aparece no site.">
            <Input maxLength={100} {...register("broker_partner")} />
          </FormField>
          <label className="flex items-center gap-3 text-sm font-medium">
            <input type="checkbox" className="size-5 accent-primary" {...register("featured")} />
            Destaque na página inicial
          </label>
          <div className="grid gap-1">
            <label className="flex items-center gap-3 text-sm font-medium">
              <input type="checkbox" className="size-5 accent-primary" aria-describedby={portalsHintId} {...register("publish_to_portals")} />
              Publicar nos portais
            </label>
            <p id={portalsHintId} className="pl-8 text-xs text-muted-foreground">
              ZAP Imóveis, VivaReal e OLX, pelo feed em Configurações → Portais.
            </p>
          </div>
          <Controller
            control={control}
            name="images"
            render={({ field }) => (
              <PhotoUploader images={field.value ?? []} onChange={field.onChange} onUploaded={onUploaded} onBusyChange={setUploading} />
            )}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
