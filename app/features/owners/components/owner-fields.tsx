import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { Textarea } from "~/components/ui/textarea";

export type OwnerFieldValues = { full_name: string; phone: string | null; email: string | null; document: string | null; notes: string | null };

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
    </div>
  );
}
