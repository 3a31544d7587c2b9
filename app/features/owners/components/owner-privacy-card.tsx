import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";

/**
 * /crm/privacidade: owners (proprietários) are found on their own list, by name, e-mail, phone
 * or CPF/CNPJ; an owner's page offers the admin the export and the anonymisation (decision 024).
 */
export function OwnerPrivacyCard() {
  return (
    <Card className="grid gap-3 p-4">
      <h2 className="font-semibold">Proprietários</h2>
      <p className="text-sm text-muted-foreground">
        Pedidos de proprietários: busque pelo nome, e-mail, telefone ou CPF/CNPJ. Na página do proprietário, exporte os dados ou
        anonimize-os.
      </p>
      <Form method="get" action="/crm/proprietarios" className="flex flex-wrap items-end gap-2">
        <FormField label="Proprietário (nome, e-mail, telefone ou CPF/CNPJ)" className="min-w-0 flex-1">
          <Input name="q" maxLength={100} autoComplete="off" />
        </FormField>
        {/* Not 'Buscar': that is the person search's button above, and stays the only one. */}
        <Button type="submit" variant="outline">
          Procurar proprietário
        </Button>
      </Form>
    </Card>
  );
}
