import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";

/**
 * Find a person by phone (any formatting) or e-mail. A POST, not a GET: the phone or e-mail
 * never lands in the address bar, the history or a log; the answer is the lead's id.
 */
export function PersonSearch({ error }: { error?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "search";
  return (
    <Card className="p-4 sm:p-5" role="search" aria-labelledby="privacy-search-title">
      <h2 id="privacy-search-title" className="mb-3 flex items-center gap-2 text-base font-semibold">
        <Icon name="search" className="size-4 text-primary" /> Buscar titular
      </h2>
      <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <input type="hidden" name="intent" value="search" />
        <FormField
          label="Telefone ou e-mail"
          hint="Com ou sem formatação, por exemplo (84) 99999-0000 ou nome@exemplo.com"
          error={error}
          className="flex-1"
        >
          <Input name="q" type="text" inputMode="email" autoComplete="off" maxLength={255} required />
        </FormField>
        <Button type="submit" disabled={busy} className="sm:mt-[1.625rem]">
          <Icon name="search" /> {busy ? "Buscando..." : "Buscar"}
        </Button>
      </Form>
    </Card>
  );
}
