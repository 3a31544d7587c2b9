import { useId } from "react";
import { Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";

export type CaptacaoListing = {
  id: string;
  codigo: string;
  title: string;
  status: string;
  captacao: {
    authorization_type: "exclusiva" | "nao_exclusiva";
    starts_on: string | null;
    ends_on: string | null;
    commission: number | null;
    keys_location: string | null;
    report_note?: string | null;
    has_document: boolean;
    document_size: number | null;
  } | null;
};

type Answer = ActionAnswer & { intent?: string; field?: string };

const sizeLabel = (bytes: number | null) => (bytes === null ? "" : bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1).replace(".", ",")} MB`);

/**
 * Captação of one of the owner's listings (decision 024): authorisation, dates, commission, keys,
 * and the authorisation PDF (private: opened through /crm/captacao/:id/documento, staff only).
 */
export function CaptacaoSection({ listing }: { listing: CaptacaoListing }) {
  const save = useFetcher<Answer>();
  const upload = useFetcher<Answer>();
  const remove = useFetcher<Answer>();
  useAnswerToast(save);
  useAnswerToast(upload);
  useAnswerToast(remove);
  const headingId = useId();
  const captacao = listing.captacao;
  const errorOf = (field: string) => (save.data && !save.data.ok && save.data.field === field ? save.data.message : undefined);

  return (
    <Card className="grid gap-4 p-4" aria-labelledby={headingId} role="region">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="font-semibold">
            <Link to={`/crm/imoveis?busca=${encodeURIComponent(listing.codigo)}`} className="underline-offset-2 hover:underline">
              {listing.codigo}
            </Link>{" "}
            <span className="font-normal text-muted-foreground">— {listing.title}</span>
          </h3>
          <p className="text-xs text-muted-foreground">Captação</p>
        </div>
        {captacao && <Badge variant={captacao.authorization_type === "exclusiva" ? "default" : "secondary"}>{captacao.authorization_type === "exclusiva" ? "Exclusiva" : "Não exclusiva"}</Badge>}
      </div>

      <save.Form method="post" className="grid gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="captacao" />
        <input type="hidden" name="property_id" value={listing.id} />
        <FormField label="Autorização" error={errorOf("authorization_type")}>
          <NativeSelect name="authorization_type" defaultValue={captacao?.authorization_type ?? "exclusiva"}>
            <option value="exclusiva">Exclusiva</option>
            <option value="nao_exclusiva">Não exclusiva</option>
          </NativeSelect>
        </FormField>
        <FormField label="Comissão combinada (%)" error={errorOf("commission")}>
          <Input name="commission" inputMode="decimal" maxLength={6} defaultValue={captacao?.commission === null || captacao?.commission === undefined ? "" : String(captacao.commission).replace(".", ",")} />
        </FormField>
        <FormField label="Início" error={errorOf("starts_on")}>
          <Input name="starts_on" type="date" defaultValue={captacao?.starts_on ?? ""} />
        </FormField>
        <FormField label="Término" error={errorOf("ends_on")}>
          <Input name="ends_on" type="date" defaultValue={captacao?.ends_on ?? ""} />
        </FormField>
        <FormField label="Onde estão as chaves" error={errorOf("keys_location")} className="sm:col-span-2">
          <Input name="keys_location" maxLength={200} defaultValue={captacao?.keys_location ?? ""} />
        </FormField>
        <FormField label="Nota para o relatório do proprietário" error={errorOf("report_note")} className="sm:col-span-2">
          <Textarea name="report_note" maxLength={1000} rows={2} defaultValue={captacao?.report_note ?? ""} />
        </FormField>
        <div className="sm:col-span-2">
          <Button type="submit" size="sm" disabled={save.state !== "idle"}>
            Salvar captação
          </Button>
        </div>
      </save.Form>

      <div className="grid gap-2 border-t border-border pt-3">
        <p className="text-sm font-medium">Autorização assinada (PDF, até 10 MB)</p>
        {captacao?.has_document ? (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <a href={`/crm/captacao/${listing.id}/documento`} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 underline underline-offset-2">
              <Icon name="download" /> Abrir autorização ({sizeLabel(captacao.document_size)})
            </a>
            <remove.Form method="post">
              <input type="hidden" name="intent" value="document-delete" />
              <input type="hidden" name="property_id" value={listing.id} />
              <Button type="submit" size="sm" variant="ghost" disabled={remove.state !== "idle"}>
                <Icon name="trash-2" /> Remover PDF
              </Button>
            </remove.Form>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">{captacao ? "Nenhum PDF enviado." : "Salve a captação para enviar a autorização."}</p>
        )}
        {captacao && (
          <upload.Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="document" />
            <input type="hidden" name="property_id" value={listing.id} />
            <FormField label={captacao.has_document ? "Substituir PDF" : "Arquivo PDF"} className="min-w-0 flex-1">
              <Input name="file" type="file" accept="application/pdf,.pdf" required className="py-2" />
            </FormField>
            <Button type="submit" size="sm" variant="outline" disabled={upload.state !== "idle"}>
              <Icon name="upload" /> Enviar PDF
            </Button>
          </upload.Form>
        )}
      </div>
    </Card>
  );
}
