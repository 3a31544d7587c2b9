import { type ReactElement, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { PhoneInput } from "~/components/ui/phone-input";
import { Textarea } from "~/components/ui/textarea";
import { useAnswerToast } from "~/features/crm/form-helpers";
import type { BrokerProfile } from "~/features/site/broker-profile";
import { formatPhoneInput } from "~/lib/phone";
import { type EditableProfileField, MAX_BIO, type SettingsAnswer } from "../keys";
import { PortraitField } from "./portrait-field";
import { SectionStatus, useSectionChanges } from "./unsaved-changes";

type Profile = Pick<BrokerProfile, EditableProfileField>;

/** A stored WhatsApp number (5584999999999) as the broker types it: (84) 99999-9999. */
function whatsappForInput(digits: string): string {
  return digits.startsWith("55") && (digits.length === 12 || digits.length === 13) ? formatPhoneInput(digits.slice(2)) : digits;
}

export function ProfileForm({ profile, defaultPortraitUrl, onDirtyChange }: { profile: Profile; defaultPortraitUrl: string; onDirtyChange: (dirty: boolean) => void }) {
  const fetcher = useFetcher<SettingsAnswer>();
  useAnswerToast({ state: fetcher.state, data: fetcher.data });
  const changes = useSectionChanges(fetcher, "profile", onDirtyChange);
  const [portraitUrl, setPortraitUrl] = useState(profile.portraitUrl);
  const [uploading, setUploading] = useState(false);
  const errors = fetcher.state === "idle" && fetcher.data?.intent === "profile" ? (fetcher.data.errors ?? {}) : {};
  const busy = fetcher.state !== "idle" || uploading;

  // Each field keeps what was typed when the save is refused: the inputs are not reset.
  // content-start: a neighbour's hint must not push this field's input down.
  const field = (name: EditableProfileField, label: string, control: ReactElement<Record<string, unknown>>, options: { hint?: string; wide?: boolean } = {}) => (
    <FormField label={label} error={errors[name]} hint={options.hint} className={options.wide ? "content-start sm:col-span-2" : "content-start"}>
      {control}
    </FormField>
  );

  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Perfil do corretor</h2>
        <SectionStatus state={changes.state} />
      </div>
      <p className="mt-1 text-sm text-muted-foreground">Nome, contatos, redes sociais, texto e foto da página “Sobre”, do rodapé e das prévias de links.</p>
      <fetcher.Form ref={changes.formRef} onInput={changes.onInput} method="post" action="/crm/configuracoes" noValidate className="mt-5 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="profile" />
        <input type="hidden" name="portraitUrl" value={portraitUrl} />
        {field("name", "Nome", <Input name="name" defaultValue={profile.name} autoComplete="name" required maxLength={100} />)}
        {field("siteName", "Nome do site", <Input name="siteName" defaultValue={profile.siteName} required maxLength={100} />, {
          hint: "Aparece no topo, no rodapé e nas prévias do WhatsApp.",
        })}
        {field("creci", "CRECI", <Input name="creci" defaultValue={profile.creci} required maxLength={50} />)}
        {field("email", "E-mail", <Input name="email" type="email" defaultValue={profile.email} autoComplete="email" required maxLength={255} />)}
        {field("phone", "Telefone", <PhoneInput name="phone" defaultValue={profile.phone} required />)}
        {field("whatsapp", "WhatsApp", <PhoneInput name="whatsapp" defaultValue={whatsappForInput(profile.whatsapp)} autoComplete="off" required />, {
          hint: "Número com DDD; os botões de WhatsApp do site abrem conversa com ele.",
        })}
        {field("address", "Endereço (opcional)", <Input name="address" defaultValue={profile.address} autoComplete="street-address" maxLength={200} />, {
          wide: true,
        })}
        {field("city", "Cidade", <Input name="city" defaultValue={profile.city} required maxLength={60} />)}
        {field("serviceArea", "Região de atendimento", <Input name="serviceArea" defaultValue={profile.serviceArea} required maxLength={100} />)}
        {field("instagramUrl", "Instagram (opcional)", <Input name="instagramUrl" type="url" defaultValue={profile.instagramUrl} placeholder="https://www.instagram.com/seu-perfil" maxLength={200} />)}
        {field("facebookUrl", "Facebook (opcional)", <Input name="facebookUrl" type="url" defaultValue={profile.facebookUrl} placeholder="https://www.facebook.com/sua-pagina" maxLength={200} />)}
        {field("bio", "Texto “Sobre”", <Textarea name="bio" defaultValue={profile.bio} required maxLength={MAX_BIO} rows={6} />, {
          hint: `Até ${MAX_BIO} caracteres. Os primeiros aparecem nas buscas e nas prévias de links.`,
          wide: true,
        })}
        <div className="sm:col-span-2">
          <PortraitField
            value={portraitUrl}
            savedValue={profile.portraitUrl}
            defaultUrl={defaultPortraitUrl}
            onChange={setPortraitUrl}
            onBusyChange={setUploading}
            error={errors.portraitUrl}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            <Icon name="check" />
            {fetcher.state !== "idle" ? "Salvando..." : "Salvar perfil"}
          </Button>
        </div>
      </fetcher.Form>
    </Card>
  );
}
