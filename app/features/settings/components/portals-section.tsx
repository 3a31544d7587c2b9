import { useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/components/ui/toaster";
import { useAnswerToast } from "~/features/crm/form-helpers";
import type { PortalSettings } from "~/features/portals/portal-settings.server";
import type { SettingsAnswer, SettingsIntent } from "../keys";

async function copy(value: string, what: string) {
  try {
    await navigator.clipboard.writeText(value);
    toast.success(`${what} copiado!`);
  } catch {
    toast.error("Não foi possível copiar. Selecione o texto e copie manualmente.");
  }
}

/** A value to hand to the portals: read-only, selected on focus, with a copy button. */
function CopyField({
  label,
  value,
  copyLabel,
  secret,
  hint,
}: {
  label: string;
  value: string;
  /** What the copy button's name and toast call the value ("Endereço do feed"). */
  copyLabel: string;
  /** Masked until 'Mostrar' (the webhook password). */
  secret?: boolean;
  hint?: string;
}) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          readOnly
          value={value}
          type={secret && !shown ? "password" : "text"}
          className="font-mono text-xs md:text-xs"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onFocus={(event) => event.target.select()}
        />
        <div className="flex gap-2">
          {secret && (
            <Button variant="outline" onClick={() => setShown(!shown)} aria-label={shown ? `Ocultar ${copyLabel.toLowerCase()}` : `Mostrar ${copyLabel.toLowerCase()}`}>
              <Icon name={shown ? "lock" : "eye"} /> {shown ? "Ocultar" : "Mostrar"}
            </Button>
          )}
          <Button variant="outline" onClick={() => copy(value, copyLabel)} aria-label={`Copiar ${copyLabel.toLowerCase()}`}>
            <Icon name="copy" /> Copiar
          </Button>
        </div>
      </div>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * 'Portais' (issue 13): what the broker gives ZAP Imóveis, VivaReal and OLX — the listings
 * feed's address and the lead webhook's address, user and password — and the changes: a new feed
 * address, a new random password, or a password typed by hand. Each asks first when the old
 * value stops working.
 */
export function PortalsSection({ portals }: { portals: PortalSettings }) {
  const fetcher = useFetcher<SettingsAnswer>({ key: "settings-portals" });
  const manualForm = useRef<HTMLFormElement>(null);
  useAnswerToast({ state: fetcher.state, data: fetcher.data }, () => {
    if (fetcher.data?.intent === "portal-secret-set") manualForm.current?.reset();
  });
  const [confirming, setConfirming] = useState<null | "portal-feed-token" | "portal-secret-generate">(null);
  const busy = fetcher.state !== "idle";
  const errors = fetcher.state === "idle" && fetcher.data?.intent === "portal-secret-set" ? (fetcher.data.errors ?? {}) : {};
  const post = (intent: SettingsIntent) => fetcher.submit({ intent }, { method: "post", action: "/crm/configuracoes" });

  return (
    <Card className="p-4 sm:p-6" role="region" aria-labelledby="portais">
      <h2 id="portais" className="text-lg font-semibold">
        Portais
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        ZAP Imóveis, VivaReal e OLX (Grupo OLX, Canal Pro): os portais leem os anúncios do feed e enviam os contatos que recebem
        direto para o CRM.
      </p>

      <section className="mt-5 grid max-w-2xl gap-4" aria-labelledby="portais-feed">
        <h3 id="portais-feed" className="font-semibold">
          Anúncios (feed VRSync)
        </h3>
        <CopyField
          label="Endereço do feed"
          copyLabel="Endereço do feed"
          value={portals.feedUrl}
          hint="Cadastre este endereço no Canal Pro. Ele traz os imóveis disponíveis marcados com 'Publicar nos portais'; quem tiver o endereço vê o que os portais recebem."
        />
        <div>
          <Button variant="outline" disabled={busy} onClick={() => setConfirming("portal-feed-token")}>
            <Icon name="history" /> Gerar novo endereço
          </Button>
        </div>
      </section>

      <section className="mt-6 grid max-w-2xl gap-4 border-t border-border pt-5" aria-labelledby="portais-leads">
        <h3 id="portais-leads" className="font-semibold">
          Leads dos portais
        </h3>
        <p className="text-sm text-muted-foreground">
          Informe estes dados ao Grupo OLX ao pedir a integração de leads. Cada contato chega ao CRM com a origem Portal e gera o
          mesmo aviso por e-mail que os leads do site.
        </p>
        <CopyField label="Endereço para os leads (webhook)" copyLabel="Endereço dos leads" value={portals.webhookUrl} />
        <CopyField label="Usuário" copyLabel="Usuário" value={portals.webhookUser} />
        <CopyField label="Senha" copyLabel="Senha" value={portals.webhookSecret} secret />
        <div>
          <Button variant="outline" disabled={busy} onClick={() => setConfirming("portal-secret-generate")}>
            <Icon name="history" /> Gerar nova senha
          </Button>
        </div>
        <details className="rounded-md border border-border p-3" open={Boolean(errors.secret)}>
          <summary className="cursor-pointer text-sm font-medium">Definir a senha manualmente</summary>
          <fetcher.Form ref={manualForm} method="post" action="/crm/configuracoes" noValidate className="mt-3 grid gap-3">
            <input type="hidden" name="intent" value="portal-secret-set" />
            <FormField
              label="Nova senha"
              error={errors.secret}
              hint="De 16 a 200 caracteres: letras sem acento, números e símbolos, sem espaços. A senha atual deixa de funcionar."
            >
              <Input name="secret" required minLength={16} maxLength={200} autoComplete="off" spellCheck={false} className="font-mono" />
            </FormField>
            <div>
              <Button type="submit" disabled={busy}>
                <Icon name="lock" />
                {busy && fetcher.formData?.get("intent") === "portal-secret-set" ? "Salvando..." : "Salvar senha"}
              </Button>
            </div>
          </fetcher.Form>
        </details>
      </section>

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirming === "portal-feed-token" ? "Gerar um novo endereço do feed?" : "Gerar uma nova senha?"}
        description={
          confirming === "portal-feed-token"
            ? "O endereço atual deixa de funcionar: os portais param de atualizar seus anúncios até você cadastrar o novo no Canal Pro."
            : "A senha atual deixa de funcionar: os leads dos portais não chegam ao CRM até você informar a nova senha ao Grupo OLX."
        }
        confirmLabel={confirming === "portal-feed-token" ? "Gerar novo endereço" : "Gerar nova senha"}
        onConfirm={() => {
          const intent = confirming;
          setConfirming(null);
          if (intent) post(intent);
        }}
      />
    </Card>
  );
}
