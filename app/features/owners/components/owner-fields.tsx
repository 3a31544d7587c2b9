import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";

export type OwnerFieldValues = { full_name: string; phone: string | null; email: string | null; document: string | null; notes: string | null; report_opt_out?: boolean };

/** The owner's fields, for the create form (list page) and the edit form (owner page). */
export function OwnerFields({ values, error }: { values?: OwnerFieldValues; error?: { field?: string; message: string } }) {
  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField label="Nome completo" error={errorOf("full_name")} className="sm:col-span-2">
        <Input name="full_name" required minLength={2} maxLength={120} autoComplete="off" defaultValue={values?.full_name ?? ""} />
      </FormField>
      <FormField label="Telefone" hint="(84) 99999-9999" error={errorOf("phone")}>
        <Input name="phone" type="tel" inputMode="tel" maxLength={20} autoComplete="off" defaultValue={values?.phone ?? ""} />
      </FormField>
      <FormField label="E-mail" error={errorOf("email")}>
        <Input name="email" type="email" maxLength={255} autoComplete="off" defaultValue={values?.email ?? ""} />
      </FormField>
      <FormField label="CPF ou CNPJ" hint="Conferido pelos dígitos verificadores" error={errorOf("document")}>
        <Input name="document" inputMode="numeric" maxLength={20} autoComplete="off" defaultValue={values?.document ?? ""} />
      </FormField>
      <FormField label="Observações" error={errorOf("notes")} className="sm:col-span-2">
        <Textarea name="notes" maxLength={2000} rows={3} defaultValue={values?.notes ?? ""} />
      </FormField>
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" name="report_opt_out" className="size-5 shrink-0 accent-primary" defaultChecked={values?.report_opt_out ?? false} />
        Não quer receber o relatório mensal por e-mail
      </label>
    </div>
  );
}
