import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { requireStaff } from "~/features/auth/guard.server";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { CaptacaoSection } from "~/features/owners/components/captacao-section";
import { OwnerFields } from "~/features/owners/components/owner-fields";
import { handleOwnerAction, loadOwnerPage } from "~/features/owners/page.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-owner";

/**
 * /crm/proprietarios/:id — one owner: their data, their listings and each listing's captação
 * (authorisation, dates, commission, keys, the signed PDF). Staff only; the LGPD export and the
 * anonymisation are for admins (decision 024).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  const runtime = await getRuntime();
  return loadOwnerPage({ db: runtime.db, storage: runtime.storage }, params.id, staff);
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const runtime = await getRuntime();
  return handleOwnerAction({ db: runtime.db, storage: runtime.storage }, request, params.id, staff);
}

export const meta: Route.MetaFunction = () => [{ title: "Proprietário | CRM" }];

type Answer = ActionAnswer & { field?: string; intent?: string };

export default function CrmOwnerPage({ loaderData }: Route.ComponentProps) {
  const { owner, isAdmin } = loaderData;
  const edit = useFetcher<Answer>();
  const link = useFetcher<Answer>();
  const unlink = useFetcher<Answer>();
  const remove = useFetcher<Answer>();
  const anonymize = useFetcher<Answer>();
  const report = useFetcher<Answer>();
  const [confirm, setConfirm] = useState<"delete" | "anonymize" | null>(null);
  useAnswerToast(edit);
  useAnswerToast(link);
  useAnswerToast(unlink);
  useAnswerToast(remove);
  useAnswerToast(report);
  useAnswerToast(anonymize, () => setConfirm(null));
  const editError = edit.data && !edit.data.ok ? { field: edit.data.field, message: edit.data.message } : undefined;
  const linkError = link.data && !link.data.ok ? link.data.message : undefined;

  return (
    <div className="grid gap-6">
      <header className="grid gap-2">
        <Link to="/crm/proprietarios" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:underline">
          <Icon name="arrow-left" /> Proprietários
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="min-w-0 break-words text-2xl font-bold">{owner.full_name}</h1>
          {owner.anonymized && <Badge variant="secondary">Anonimizado</Badge>}
        </div>
        <p className="text-sm text-muted-foreground">
          {owner.listings.length} {owner.listings.length === 1 ? "imóvel" : "imóveis"}. Dados de uso interno: nunca aparecem no site.
        </p>
      </header>

      <Card className="p-4">
        <edit.Form method="post" className="grid gap-4" key={owner.updated_at}>
          <h2 className="font-semibold">Dados do proprietário</h2>
          <input type="hidden" name="intent" value="update" />
          <OwnerFields values={owner} error={editError} />
          <div>
            <Button type="submit" disabled={edit.state !== "idle"}>
              Salvar
            </Button>
          </div>
        </edit.Form>
      </Card>

      <section className="grid gap-3" aria-labelledby="owner-listings">
        <h2 id="owner-listings" className="text-lg font-semibold">
          Imóveis e captação
        </h2>
        <Card className="p-4">
          <link.Form method="post" className="flex flex-wrap items-end gap-2" key={owner.listings.length}>
            <input type="hidden" name="intent" value="link" />
            <FormField label="Vincular imóvel pelo código" hint="Ex.: AP-PN-101" error={linkError} className="min-w-0 flex-1">
              <Input name="codigo" required maxLength={40} autoComplete="off" />
            </FormField>
            <Button type="submit" variant="outline" disabled={link.state !== "idle"}>
              <Icon name="link" /> Vincular
            </Button>
          </link.Form>
        </Card>
        {owner.listings.length === 0 && <p className="text-sm text-muted-foreground">Nenhum imóvel vinculado.</p>}
        {owner.listings.map((listing) => (
          <div key={listing.id} className="grid gap-1">
            <CaptacaoSection listing={listing} />
            <unlink.Form method="post" className="justify-self-end">
              <input type="hidden" name="intent" value="unlink" />
              <input type="hidden" name="property_id" value={listing.id} />
              <Button type="submit" size="sm" variant="ghost" disabled={unlink.state !== "idle"}>
                Desvincular {listing.codigo}
              </Button>
            </unlink.Form>
          </div>
        ))}
      </section>

      <Card className="grid gap-3 p-4">
        <h2 className="font-semibold">Relatório do proprietário</h2>
        <p className="text-sm text-muted-foreground">
          Todo mês o proprietário recebe por e-mail, para cada imóvel, as visualizações, os contatos, as visitas, os dias no mercado e a
          sua nota. O envio manual cobre os últimos 30 dias. {owner.report_opt_out ? "Este proprietário pediu para não receber." : owner.email ? "" : "Cadastre um e-mail para enviar."}
        </p>
        <report.Form method="post">
          <input type="hidden" name="intent" value="report" />
          <Button type="submit" size="sm" variant="outline" disabled={report.state !== "idle" || !owner.email || owner.report_opt_out}>
            <Icon name="send" /> Enviar relatório agora
          </Button>
        </report.Form>
      </Card>

      <Card className="grid gap-3 p-4">
        <h2 className="font-semibold">Privacidade e exclusão</h2>
        <p className="text-sm text-muted-foreground">
          Excluir apaga o proprietário, os vínculos e os PDFs de autorização dos imóveis dele.
          {isAdmin ? " Para um pedido de titular (LGPD), exporte os dados ou anonimize-os." : ""}
        </p>
        <div className="flex flex-wrap gap-2">
          {isAdmin && (
            <a href={`/crm/proprietarios/${owner.id}/exportar`} className={buttonClass("outline", "sm")} download>
              <Icon name="download" /> Exportar dados (LGPD)
            </a>
          )}
          {isAdmin && !owner.anonymized && (
            <Button size="sm" variant="outline" onClick={() => setConfirm("anonymize")}>
              <Icon name="shield" /> Anonimizar
            </Button>
          )}
          <Button size="sm" variant="destructive" onClick={() => setConfirm("delete")}>
            <Icon name="trash-2" /> Excluir proprietário
          </Button>
        </div>
      </Card>

      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm === "anonymize" ? "Anonimizar proprietário?" : "Excluir proprietário?"}
        description={
          confirm === "anonymize"
            ? "Nome, contatos, CPF/CNPJ e observações serão apagados, e os PDFs de autorização também. Os vínculos com os imóveis ficam."
            : "O proprietário, os vínculos e os PDFs de autorização dos imóveis dele serão apagados. Não dá para desfazer."
        }
        confirmLabel={confirm === "anonymize" ? "Anonimizar" : "Excluir"}
        busy={remove.state !== "idle" || anonymize.state !== "idle"}
        onConfirm={() =>
          confirm === "anonymize" ? anonymize.submit({ intent: "anonymize" }, { method: "post" }) : remove.submit({ intent: "delete" }, { method: "post" })
        }
      />
    </div>
  );
}
