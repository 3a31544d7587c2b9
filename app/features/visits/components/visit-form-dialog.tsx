import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toaster";
import { type ActionAnswer, firstErrorMessage, useAnswerToast, useFillOnOpen } from "~/features/crm/form-helpers";
import type { AgendaVisit } from "../agenda.server";
import type { LeadOption, PropertyOption } from "../pickers.server";
import { LEAD_SEARCH_PARAM, PROPERTY_SEARCH_PARAM, VISIT_MESSAGES } from "../labels";
import { RecordPicker, usePickerSearch } from "./record-picker";
import { type VisitFormInput, type VisitFormValues, visitFormSchema } from "../schema";

const FIELD_ORDER: (keyof VisitFormInput)[] = ["lead_id", "property_id", "scheduled_at", "notes"];

type Option = { id: string; label: string };

/**
 * The options a select shows, each once: the target's own (present before the form is filled,
 * or the browser would drop the value), the one chosen (a new search never loses it), then the
 * search's results.
 */
function optionList<T extends Option>(...options: (T | undefined)[]): T[] {
  const seen = new Set<string>();
  return options.filter((option): option is T => {
    if (!option || seen.has(option.id)) return false;
    seen.add(option.id);
    return true;
  });
}

export type VisitDialogTarget =
  | { mode: "new"; lead?: LeadOption; property?: PropertyOption | null }
  | { mode: "edit"; visit: AgendaVisit };

function defaultsFor(target: VisitDialogTarget): VisitFormInput {
  if (target.mode === "edit") {
    return {
      lead_id: target.visit.lead.id,
      property_id: target.visit.property?.id ?? "",
      scheduled_at: target.visit.when_input,
      notes: target.visit.notes ?? "",
    };
  }
  return { lead_id: target.lead?.id ?? "", property_id: target.property?.id ?? "", scheduled_at: "", notes: "" };
}

function chosenOptions(target: VisitDialogTarget): { lead?: LeadOption; property?: PropertyOption } {
  if (target.mode === "edit") {
    const { visit } = target;
    return {
      lead: { id: visit.lead.id, label: `${visit.lead.full_name} — ${visit.lead.phone}`, property_id: null, preferences: visit.lead.preferences },
      property: visit.property ? { id: visit.property.id, label: `${visit.property.codigo} — ${visit.property.title}` } : undefined,
    };
  }
  return { lead: target.lead, property: target.property ?? undefined };
}

/** Schedule a visit, or edit / reschedule one. */
export function VisitFormDialog({
  open,
  onOpenChange,
  target,
  leadChoices,
  propertyChoices,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  target: VisitDialogTarget;
  leadChoices: LeadOption[];
  propertyChoices: PropertyOption[];
  onSaved?: () => void;
}) {
  const editing = target.mode === "edit" ? target.visit : undefined;
  const fetcher = useFetcher<ActionAnswer>({ key: `visit-${editing?.id ?? "new"}` });
  const { register, handleSubmit, formState, reset, getValues, setValue, watch } = useForm<VisitFormInput, unknown, VisitFormValues>({
    resolver: zodResolver(visitFormSchema),
    defaultValues: defaultsFor(target),
  });
  const errors = formState.errors;
  const saving = fetcher.state !== "idle";
  const leadSearch = usePickerSearch(LEAD_SEARCH_PARAM);
  const propertySearch = usePickerSearch(PROPERTY_SEARCH_PARAM);

  // Every option seen so far, so the chosen one keeps its label whatever the latest search shows.
  const [known, setKnown] = useState<{ leads: Map<string, LeadOption>; properties: Map<string, PropertyOption> }>(() => ({
    leads: new Map(),
    properties: new Map(),
  }));
  const remember = (leads: LeadOption[], properties: PropertyOption[]) =>
    setKnown((current) => {
      const next = { leads: new Map(current.leads), properties: new Map(current.properties) };
      for (const lead of leads) next.leads.set(lead.id, lead);
      for (const property of properties) next.properties.set(property.id, property);
      return next;
    });

  const targetKey = target.mode === "edit" ? target.visit.id : `new-${target.lead?.id ?? ""}`;
  useFillOnOpen(open, targetKey, () => reset(defaultsFor(target)));
  useAnswerToast(fetcher, () => {
    onOpenChange(false);
    onSaved?.();
  });

  const leadList = leadSearch.data?.leadOptions ?? leadChoices;
  const propertyList = propertySearch.data?.propertyOptions ?? propertyChoices;
  useEffect(() => remember(leadList, propertyList), [leadList, propertyList]);

  const leadId = watch("lead_id");
  const propertyId = watch("property_id");
  const chosen = chosenOptions(target);
  const leadOptions = optionList(chosen.lead, leadId ? known.leads.get(leadId) : undefined, ...leadList);
  // The days and periods the visitor asked for (issue 25), so the broker picks a time that suits.
  const preferences = (leadId ? (known.leads.get(leadId) ?? (chosen.lead?.id === leadId ? chosen.lead : undefined)) : undefined)?.preferences ?? [];
  const propertyOptions = optionList(chosen.property, propertyId ? known.properties.get(propertyId) : undefined, ...propertyList);

  const submit = handleSubmit(
    // The raw form values go to the server, which reads the date-time in the broker's zone itself.
    () =>
      fetcher.submit({ intent: editing ? "update" : "create", id: editing?.id ?? null, values: getValues() } as never, {
        method: "post",
        action: "/crm/visitas",
        encType: "application/json",
      }),
    (fieldErrors) => toast.error(firstErrorMessage(fieldErrors, FIELD_ORDER, VISIT_MESSAGES.saveFailed)),
  );

  return (
    <Dialog open={open} onOpenChange={(next) => !saving && onOpenChange(next)}>
      <DialogContent
        title={editing ? "Editar visita" : "Agendar visita"}
        description="Horário de Natal (UTC−3)."
        footer={
          <>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={saving}>
              Cancelar
            </Button>
            <Button type="submit" form="visit-form" disabled={saving}>
              {saving ? "Salvando..." : editing ? "Salvar alterações" : "Agendar visita"}
            </Button>
          </>
        }
      >
        <form id="visit-form" onSubmit={submit} noValidate className="grid gap-4">
          <fieldset className="grid gap-3 rounded-md border border-border p-3">
            <legend className="px-1 text-sm font-semibold">Lead</legend>
            <RecordPicker
              searchLabel="Buscar lead (nome, telefone ou email)"
              picker={leadSearch}
              label="Lead"
              error={errors.lead_id?.message}
              emptyLabel="Selecione o lead"
              options={leadOptions}
              select={register("lead_id", {
                onChange: (event) => {
                  // A lead who booked a visit for a property: that property, unless one is chosen.
                  const lead = known.leads.get(event.target.value);
                  if (lead?.property_id && !getValues("property_id") && known.properties.has(lead.property_id)) {
                    setValue("property_id", lead.property_id);
                  }
                },
              })}
            />
            {preferences.length > 0 && (
              <div className="rounded-md bg-muted p-2 text-sm" data-testid="visit-preferences">
                <p className="font-medium">Dias preferidos pelo visitante</p>
                <ul className="list-disc pl-5">
                  {preferences.map((label) => (
                    <li key={label}>{label}</li>
                  ))}
                </ul>
              </div>
            )}
          </fieldset>
          <fieldset className="grid gap-3 rounded-md border border-border p-3">
            <legend className="px-1 text-sm font-semibold">Imóvel</legend>
            <RecordPicker
              searchLabel="Buscar imóvel (código, título ou bairro)"
              picker={propertySearch}
              label="Imóvel (opcional)"
              error={errors.property_id?.message}
              emptyLabel="Sem imóvel definido"
              options={propertyOptions}
              select={register("property_id")}
            />
          </fieldset>
          <FormField label="Data e hora" error={errors.scheduled_at?.message}>
            <Input type="datetime-local" {...register("scheduled_at")} />
          </FormField>
          <FormField label="Observações (opcional)" error={errors.notes?.message} hint="Até 1000 caracteres.">
            <Textarea rows={3} maxLength={1000} {...register("notes")} />
          </FormField>
        </form>
      </DialogContent>
    </Dialog>
  );
}
