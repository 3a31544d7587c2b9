import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { PhoneInput } from "~/components/ui/phone-input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { toast } from "~/components/ui/toaster";
import { type ActionAnswer, firstErrorMessage, useAnswerToast, useFillOnOpen } from "~/features/crm/form-helpers";
import { LEAD_INTERESTS, LEAD_ORIGINS, LEAD_STATUSES } from "~/db/values";
import { formatPhoneInput } from "~/lib/phone";
import { LEAD_CRM_MESSAGES, leadFormSchema, type LeadFormInput, type LeadFormValues } from "../crm-schema";
import type { CrmLead } from "../crm.server";
import { INTEREST_LABELS, LEAD_STATUS_LABELS, ORIGIN_LABELS } from "../labels";
import { LossFields } from "./loss-fields";
import { PropertyTypeOptions } from "~/features/properties/components/property-type-options";

const FIELD_ORDER: (keyof LeadFormInput)[] = ["full_name", "phone", "email", "interest_type", "property_type", "origin", "status", "lost_reason", "lost_note", "notes"];

function defaultsFor(lead?: CrmLead): LeadFormInput {
  return {
    full_name: lead?.full_name ?? "",
    phone: lead?.phone ?? "",
    email: lead?.email ?? "",
    interest_type: lead?.interest_type ?? "comprar",
    property_type: lead?.property_type ?? "",
    origin: lead?.origin ?? "site",
    status: lead?.status ?? "novo",
    notes: lead?.notes ?? "",
    lost_reason: lead?.lost_reason ?? "",
    lost_note: lead?.lost_note ?? "",
  };
}

/**
 * 'Novo Lead' and edit (spec §3/§5): any status may follow any other; 'Perdido' asks why
 * (issue 24), and any other status clears the reason when saved.
 */
export function LeadFormDialog({
  open,
  onOpenChange,
  lead,
  lostReasons,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  lead?: CrmLead;
  lostReasons: string[];
}) {
  const fetcher = useFetcher<ActionAnswer>({ key: `lead-${lead?.id ?? "new"}` });
  const { register, handleSubmit, formState, reset, watch } = useForm<LeadFormInput, unknown, LeadFormValues>({
    resolver: zodResolver(leadFormSchema),
    defaultValues: defaultsFor(lead),
  });
  const errors = formState.errors;
  const saving = fetcher.state !== "idle";
  const lost = watch("status") === "perdido";

  useFillOnOpen(open, lead?.id ?? "new", () => reset(defaultsFor(lead)));
  useAnswerToast(fetcher, () => onOpenChange(false));

  const submit = handleSubmit(
    (values) =>
      fetcher.submit({ intent: lead ? "update" : "create", id: lead?.id ?? null, values } as never, {
        method: "post",
        action: "/crm/leads",
        encType: "application/json",
      }),
    (fieldErrors) => toast.error(firstErrorMessage(fieldErrors, FIELD_ORDER, LEAD_CRM_MESSAGES.saveFailed)),
  );

  return (
    <Dialog open={open} onOpenChange={(next) => !saving && onOpenChange(next)}>
      <DialogContent
        title={lead ? "Editar Lead" : "Novo Lead"}
        description={lead?.property ? `${lead.origin === "portal" || lead.origin === "whatsapp" ? "Imóvel" : "Visita"}: ${lead.property.codigo} — ${lead.property.title}` : undefined}
        footer={
          <>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={saving}>
              Cancelar
            </Button>
            <Button type="submit" form="lead-form" disabled={saving}>
              {saving ? "Salvando..." : lead ? "Salvar Alterações" : "Cadastrar Lead"}
            </Button>
          </>
        }
      >
        <form id="lead-form" onSubmit={submit} noValidate className="grid gap-4">
          <FormField label="Nome completo" error={errors.full_name?.message}>
            <Input maxLength={100} autoComplete="off" {...register("full_name")} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Telefone" error={errors.phone?.message}>
              <PhoneInput
                {...register("phone", {
                  onChange: (event) => {
                    event.target.value = formatPhoneInput(event.target.value);
                  },
                })}
              />
            </FormField>
            <FormField label="Email (opcional)" error={errors.email?.message}>
              <Input type="email" inputMode="email" maxLength={255} {...register("email")} />
            </FormField>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Interesse" error={errors.interest_type?.message}>
              <NativeSelect {...register("interest_type")}>
                {LEAD_INTERESTS.map((value) => (
                  <option key={value} value={value}>
                    {INTEREST_LABELS[value]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField label="Tipo de imóvel (opcional)" error={errors.property_type?.message}>
              <NativeSelect {...register("property_type")}>
                <option value="">Não informado</option>
                <PropertyTypeOptions />
              </NativeSelect>
            </FormField>
            <FormField label="Origem" error={errors.origin?.message}>
              <NativeSelect {...register("origin")}>
                {LEAD_ORIGINS.map((value) => (
                  <option key={value} value={value}>
                    {ORIGIN_LABELS[value]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField label="Status" error={errors.status?.message}>
              <NativeSelect {...register("status")}>
                {LEAD_STATUSES.map((value) => (
                  <option key={value} value={value}>
                    {LEAD_STATUS_LABELS[value]}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </div>
          {lost && (
            <LossFields
              reasons={lostReasons}
              current={lead?.lost_reason}
              reasonError={errors.lost_reason?.message}
              noteError={errors.lost_note?.message}
              selectProps={register("lost_reason")}
              noteProps={register("lost_note")}
            />
          )}
          <FormField label="Notas (opcional)" error={errors.notes?.message}>
            <Textarea rows={4} maxLength={1000} {...register("notes")} />
          </FormField>
        </form>
      </DialogContent>
    </Dialog>
  );
}
