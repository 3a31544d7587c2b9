import { zodResolver } from "@hookform/resolvers/zod";
import { useCallback, useEffect, useRef, useState } from "react";
import { type FieldErrors, FormProvider, useForm } from "react-hook-form";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { toast } from "~/components/ui/toaster";
import { type ActionAnswer, firstErrorMessage, useAnswerToast, useFillOnOpen } from "~/features/crm/form-helpers";
import { PROPERTY_MESSAGES, propertyFormSchema, type PropertyFormInput, type PropertyFormValues } from "../crm-schema";
import type { CrmProperty } from "../crm.server";
import { BasicSection } from "./property-form/basic-section";
import { CharacteristicsSection } from "./property-form/characteristics-section";
import { CompletenessMeter } from "./property-form/completeness-meter";
import { CondominiumSection } from "./property-form/condominium-section";
import { defaultsFor, FIELD_ORDER, type FieldName, type SectionId, sectionOf } from "./property-form/form-model";
import { LocationSection } from "./property-form/location-section";
import type { TileConfig } from "../map/tiles";
import { MediaSection } from "./property-form/media-section";
import { PortalsSection } from "./property-form/portals-section";
import { goToSection, SectionNav } from "./property-form/section-nav";
import { ValuesSection } from "./property-form/values-section";

/** The server's answer; a refused field is named so the dialog can take the broker to it. */
type SaveAnswer = ActionAnswer & { field?: string };

/** How many errors each section holds (for the section links). */
function errorCounts(errors: FieldErrors<PropertyFormInput>): Partial<Record<SectionId, number>> {
  const counts: Partial<Record<SectionId, number>> = {};
  for (const field of Object.keys(errors)) {
    const section = sectionOf(field);
    if (section) counts[section] = (counts[section] ?? 0) + 1;
  }
  return counts;
}

/**
 * 'Novo Imóvel' and edit (spec §3 and §5, and issue 22's listing): one form in sections — Básico,
 * Valores, Características, Condomínio, Localização, Mídia, Portais — with links to each in the
 * fixed header beside the completeness meter. A failed save names the first problem (toast) and
 * takes the broker to its section and field. Photos uploaded here and never saved are deleted when
 * the dialog is cancelled. The server checks everything again (routes/crm-properties.tsx).
 */
export function PropertyFormDialog({
  open,
  onOpenChange,
  property,
  mapTiles,
  cepLookup,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  property?: CrmProperty;
  /** The map's tiles (issue 22, item 4): with them, 'Localização' has a pin to drag. */
  mapTiles?: TileConfig;
  /** CEP_LOOKUP_URL is set: 'Buscar endereço pelo CEP' is offered. */
  cepLookup?: boolean;
}) {
  const fetcher = useFetcher<SaveAnswer>({ key: `property-${property?.id ?? "new"}` });
  const [uploading, setUploading] = useState(false);
  const uploadedHere = useRef<string[]>([]);
  const saved = useRef(false);
  const form = useForm<PropertyFormInput, unknown, PropertyFormValues>({
    resolver: zodResolver(propertyFormSchema),
    defaultValues: defaultsFor(property),
    // The dialog focuses the first error itself, in the sections' order (see goToField).
    shouldFocusError: false,
  });
  const { handleSubmit, formState, reset, setFocus, setError } = form;
  const saving = fetcher.state !== "idle";

  useFillOnOpen(open, property?.id ?? "new", () => {
    reset(defaultsFor(property));
    uploadedHere.current = [];
    saved.current = false;
  });

  useAnswerToast(fetcher, () => {
    saved.current = true;
    onOpenChange(false);
  });

  /** Opens the field's section and puts the cursor in it (where it can take one). */
  const goToField = useCallback(
    (field: FieldName) => {
      const section = sectionOf(field);
      if (section) goToSection(section);
      try {
        setFocus(field, { shouldSelect: false });
      } catch {
        // A field without a focusable element (the photos): its section is in view.
      }
    },
    [setFocus],
  );

  // A refusal from the server (a code already in use, a rule the browser could not know) lands
  // on its field like the browser's own checks.
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    const field = answer && !answer.ok ? (answer.field === undefined ? undefined : (answer.field as FieldName)) : undefined;
    if (!answer || !field || !FIELD_ORDER.includes(field)) return;
    setError(field, { message: answer.message });
    goToField(field);
  }, [answer, setError, goToField]);

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
    (fieldErrors) => {
      toast.error(firstErrorMessage(fieldErrors, FIELD_ORDER, PROPERTY_MESSAGES.saveFailed));
      const first = FIELD_ORDER.find((field) => fieldErrors[field]);
      if (first) goToField(first);
    },
  );

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        className="sm:max-w-3xl"
        title={property ? "Editar Imóvel" : "Novo Imóvel"}
        description={property ? `Código ${property.codigo}` : "Preencha os dados do imóvel."}
        aside={
          <FormProvider {...form}>
            <div className="grid gap-3">
              <CompletenessMeter />
              <SectionNav errorCounts={errorCounts(formState.errors)} />
            </div>
          </FormProvider>
        }
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
        <FormProvider {...form}>
          <form id="property-form" onSubmit={submit} noValidate className="grid gap-6 [&_input]:scroll-mt-4">
            <BasicSection />
            <ValuesSection />
            <CharacteristicsSection />
            <CondominiumSection />
            <LocationSection mapTiles={mapTiles} cepLookup={cepLookup} />
            <MediaSection onUploaded={onUploaded} onBusyChange={setUploading} />
            <PortalsSection />
          </form>
        </FormProvider>
      </DialogContent>
    </Dialog>
  );
}
