import { useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { requireStaff } from "~/features/auth/guard.server";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { OwnerFields } from "~/features/owners/components/owner-fields";
import { handleOwnersAction, loadOwnersPage } from "~/features/owners/page.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-owners";

/**
 * /crm/proprietarios — the owners of the listings (issue 23, decision 024): staff only, searched by
 * name, e-mail, phone or CPF/CNPJ; created here, edited and linked to listings on their own page.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  return loadOwnersPage((await getRuntime()).db, new URL(request.url), staff);
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const runtime = await getRuntime();
  return handleOwnersAction({ db: runtime.db, storage: runtime.storage }, request, staff);
}

export const meta: Route.MetaFunction = () => [{ title: "Proprietários | CRM" }];

type Answer = ActionAnswer & { field?: string; intent?: string };

export default function CrmOwnersPage({ loaderData }: Route.ComponentProps) {
  const { q, searchError, rows, total } = loaderData;
  const create = useFetcher<Answer>();
  const remove = useFetcher<Answer>();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<{ id: string; full_name: string } | undefined>();
  useAnswerToast(create);
  useAnswerToast(remove, () => setDeleting(undefined));
  const createError = create.data && !create.data.ok ? { field: create.data.field, message: create.data.message } : undefined;

  return (
    <div className="grid gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Proprietários</h1>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total} {total === 1 ? "proprietário" : "proprietários"}
            {q ? (total === 1 ? " encontrado" : " encontrados") : ""}. Dados de uso interno: nunca aparecem no site.
          </p>
        </div>
        <Button onClick={() => setCreating((open) => !open)} aria-expanded={creating}>
          <Icon name="user-plus" /> Novo proprietário
        </Button>
      </header>

      {creating && (
        <Card className="p-4">
          <create.Form method="post" className="grid gap-4">
            <h2 className="font-semibold">Novo proprietário</h2>
            <input type="hidden" name="intent" value="create" />
            <OwnerFields error={createError} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={create.state !== "idle"}>
                Cadastrar
              </Button>
              <Button variant="outline" onClick={() => setCreating(false)}>
                Cancelar
              </Button>
            </div>
          </create.Form>
        </Card>
      )}

      <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
        <FormField label="Buscar por nome, e-mail, telefone ou CPF/CNPJ" error={searchError ?? undefined} className="min-w-0 flex-1">
          <Input name="q" defaultValue={q} maxLength={100} autoComplete="off" />
        </FormField>
        <Button type="submit" variant="outline">
          <Icon name="search" /> Buscar
        </Button>
      </Form>

      {rows.length === 0 ? (
        <Card className="p-6 text-center text-sm text-muted-foreground">{q ? "Nenhum proprietário encontrado." : "Nenhum proprietário cadastrado."}</Card>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label="Proprietários">
          {rows.map((owner) => (
            <li key={owner.id}>
              <Card className="flex items-start justify-between gap-3 p-4">
                <div className="min-w-0 text-sm">
                  <Link to={`/crm/proprietarios/${owner.id}`} className="font-semibold text-primary underline-offset-2 hover:underline">
                    {owner.full_name}
                  </Link>
                  <p className="break-words text-muted-foreground">{[owner.phone, owner.email].filter(Boolean).join(" · ") || "Sem contato"}</p>
                  <p className="text-muted-foreground">
                    {owner.document ? `${owner.document.length > 14 ? "CNPJ" : "CPF"} ${owner.document} · ` : ""}
                    {owner.listings} {owner.listings === 1 ? "imóvel" : "imóveis"}
                  </p>
                </div>
                <Button variant="ghost" size="icon" onClick={() => setDeleting(owner)} aria-label={`Excluir ${owner.full_name}`}>
                  <Icon name="trash-2" />
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {total > rows.length && <p className="text-sm text-muted-foreground">Mostrando {rows.length} de {total}. Refine a busca para ver os demais.</p>}

      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && remove.state === "idle" && setDeleting(undefined)}
        title="Excluir proprietário?"
        description={deleting ? `${deleting.full_name} e os PDFs de autorização dos imóveis dele serão apagados. Não dá para desfazer.` : undefined}
        confirmLabel="Excluir"
        busy={remove.state !== "idle"}
        onConfirm={() => deleting && remove.submit({ intent: "delete", id: deleting.id }, { method: "post" })}
      />
    </div>
  );
}
