import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { PhoneInput } from "~/components/ui/phone-input";
import { toast } from "~/components/ui/toaster";
import { type ActionAnswer, firstErrorMessage, useFillOnOpen } from "~/features/crm/form-helpers";
import { WHATSAPP_LEAD_MESSAGES, whatsappLeadSchema, type WhatsappLeadInput, type WhatsappLeadValues } from "~/features/leads/whatsapp-lead-schema";
import type { PropertyOption } from "~/features/visits/pickers.server";
import { PROPERTY_SEARCH_PARAM } from "~/features/visits/labels";
import { RecordPicker, usePickerSearch } from "~/features/visits/components/record-picker";
import { formatPhoneInput } from "~/lib/phone";

const FIELD_ORDER: (keyof WhatsappLeadInput)[] = ["full_name", "phone", "property_id"];
const EMPTY: WhatsappLeadInput = { full_name: "", phone: "", property_id: "" };

export type WhatsappLeadAnswer = ActionAnswer & { leadId?: string };

/**
 * 'Registrar conversa de WhatsApp' (issue 25, decision 028): name, phone and, optionally, the
 * listing the conversation is about; saved as a lead with origin 'whatsapp' and status 'novo'.
 */
export function WhatsappLeadDialog() {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<WhatsappLeadAnswer>({ key: "whatsapp-lead" });
  const { register, handleSubmit, formState, reset, watch } = useForm<WhatsappLeadInput, unknown, WhatsappLeadValues>({
    resolver: zodResolver(whatsappLeadSchema),
    defaultValues: EMPTY,
  });
  const errors = formState.errors;
  const saving = fetcher.state !== "idle";
  // The first choices (latest listings) load when the dialog opens.
  const listings = usePickerSearch(PROPERTY_SEARCH_PARAM, open);
  const found = useMemo(() => listings.data?.propertyOptions ?? [], [listings.data]);
  // The chosen listing keeps its label whatever a later search shows.
  const [known, setKnown] = useState<Map<string, PropertyOption>>(() => new Map());
  useEffect(() => {
    if (found.length) setKnown((current) => new Map([...current, ...found.map((option) => [option.id, option] as const)]));
  }, [found]);
  const chosenId = watch("property_id") ?? "";
  const chosen = chosenId ? known.get(chosenId) : undefined;
  const options = chosen && !found.some((option) => option.id === chosen.id) ? [chosen, ...found] : found;

  useFillOnOpen(open, "whatsapp-lead", () => reset(EMPTY));

  // The answer: a toast that leads to the new lead, and the dialog closes.
  const handled = useRef<WhatsappLeadAnswer | undefined>(undefined);
  useEffect(() => {
    const answer = fetcher.data;
    if (fetcher.state !== "idle" || !answer || handled.current === answer) return;
    handled.current = answer;
    if (!answer.ok) {
      toast.error(answer.message);
      return;
    }
    toast.success(answer.message);
    setOpen(false);
  }, [fetcher.state, fetcher.data]);

  const submit = handleSubmit(
    (values) => fetcher.submit({ intent: "whatsapp-lead", ...values, property_id: values.property_id ?? "" }, { method: "post", action: "/crm?index" }),
    (fieldErrors) => toast.error(firstErrorMessage(fieldErrors, FIELD_ORDER, WHATSAPP_LEAD_MESSAGES.saveFailed)),
  );

  const lastLead = fetcher.data?.ok ? fetcher.data.leadId : undefined;
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="whatsapp" onClick={() => setOpen(true)}>
          <Icon name="whatsapp" className="size-5" /> Registrar conversa de WhatsApp
        </Button>
        {lastLead && !open && (
          <Link to={`/crm/leads/${lastLead}`} className="text-sm font-medium text-primary underline underline-offset-4">
            Abrir o lead registrado
          </Link>
        )}
      </div>
      <Dialog open={open} onOpenChange={(next) => !saving && setOpen(next)}>
        <DialogContent
          title="Registrar conversa de WhatsApp"
          description="Vira um lead novo com origem WhatsApp."
          className="sm:max-w-lg"
          footer={
            <>
              <Button variant="outline" onClick={() => setOpen(false)} disabled={saving}>
                Cancelar
              </Button>
              <Button type="submit" form="whatsapp-lead-form" disabled={saving}>
                {saving ? "Salvando..." : "Registrar lead"}
              </Button>
            </>
          }
        >
          <form id="whatsapp-lead-form" onSubmit={submit} noValidate className="grid gap-4">
            <FormField label="Nome" error={errors.full_name?.message}>
              <Input maxLength={100} autoComplete="off" {...register("full_name")} />
            </FormField>
            <FormField label="Telefone (WhatsApp)" error={errors.phone?.message}>
              <PhoneInput
                {...register("phone", {
                  onChange: (event) => {
                    event.target.value = formatPhoneInput(event.target.value);
                  },
                })}
              />
            </FormField>
            <fieldset className="grid gap-3 rounded-md border border-border p-3">
              <legend className="px-1 text-sm font-semibold">Imóvel da conversa (opcional)</legend>
              <RecordPicker
                searchLabel="Buscar imóvel (código, título ou bairro)"
                picker={listings}
                label="Imóvel"
                error={errors.property_id?.message}
                emptyLabel="Sem imóvel definido"
                options={options}
                select={register("property_id")}
              />
            </fieldset>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
