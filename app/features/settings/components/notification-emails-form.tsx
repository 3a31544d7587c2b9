import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Textarea } from "~/components/ui/textarea";
import { useAnswerToast } from "~/features/crm/form-helpers";
import { MAX_NOTIFICATION_EMAILS, type SettingsAnswer } from "../keys";
import { SectionStatus, useSectionChanges } from "./unsaved-changes";

/** Where the new-lead alerts go: one address per line. */
export function NotificationEmailsForm({ emails, onDirtyChange }: { emails: string[]; onDirtyChange: (dirty: boolean) => void }) {
  const fetcher = useFetcher<SettingsAnswer>();
  useAnswerToast({ state: fetcher.state, data: fetcher.data });
  const changes = useSectionChanges(fetcher, "notifications", onDirtyChange);
  const errors = fetcher.state === "idle" && fetcher.data?.intent === "notifications" ? (fetcher.data.errors ?? {}) : {};
  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Avisos de novos leads</h2>
        <SectionStatus state={changes.state} />
      </div>
      <p className="mt-1 text-sm text-muted-foreground">Cada novo contato ou pedido de visita do site é enviado por e-mail para estes endereços.</p>
      <fetcher.Form ref={changes.formRef} onInput={changes.onInput} method="post" action="/crm/configuracoes" noValidate className="mt-5 grid max-w-xl gap-4">
        <input type="hidden" name="intent" value="notifications" />
        <FormField label="E-mails para os avisos" error={errors.emails} hint={`Um por linha, de 1 a ${MAX_NOTIFICATION_EMAILS} endereços.`}>
          <Textarea name="emails" defaultValue={emails.join("\n")} rows={4} required maxLength={2000} autoComplete="off" spellCheck={false} />
        </FormField>
        <div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            <Icon name="bell" />
            {fetcher.state !== "idle" ? "Salvando..." : "Salvar e-mails"}
          </Button>
        </div>
      </fetcher.Form>
    </Card>
  );
}
