import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { useAnswerToast } from "~/features/crm/form-helpers";
import { WATERMARK_TEXT_MAX, type WatermarkSetting } from "~/features/media/watermark";
import type { SettingsAnswer } from "../keys";

/**
 * Marca d'água (issue 22, item 5): off by default; when on, the text (the broker's name if left
 * empty) is burned into the photos the site and the portals show, never into the stored master.
 */
export function WatermarkForm({ watermark, brokerName }: { watermark: WatermarkSetting; brokerName: string }) {
  const fetcher = useFetcher<SettingsAnswer>();
  useAnswerToast({ state: fetcher.state, data: fetcher.data });
  const error = fetcher.state === "idle" && fetcher.data?.intent === "watermark" && !fetcher.data.ok ? fetcher.data.message : undefined;
  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-lg font-semibold">Marca d'água nas fotos</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Aplicada às fotos dos imóveis que o site e os portais mostram. A foto original guardada fica sem marca, e as fotos já enviadas são refeitas ao salvar.
      </p>
      <fetcher.Form method="post" action="/crm/configuracoes" noValidate className="mt-5 grid max-w-xl gap-4">
        <input type="hidden" name="intent" value="watermark" />
        <label className="flex items-center gap-3 text-sm font-medium">
          <input type="checkbox" name="enabled" defaultChecked={watermark.enabled} className="size-5 shrink-0 accent-primary" />
          Aplicar marca d'água nas fotos dos imóveis
        </label>
        <FormField label="Texto da marca d'água" error={error} hint={`Deixe vazio para usar o seu nome (${brokerName}). Até ${WATERMARK_TEXT_MAX} caracteres.`}>
          <Input name="text" defaultValue={watermark.text} maxLength={WATERMARK_TEXT_MAX} autoComplete="off" />
        </FormField>
        <div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            <Icon name="camera" />
            {fetcher.state !== "idle" ? "Salvando..." : "Salvar marca d'água"}
          </Button>
        </div>
      </fetcher.Form>
    </Card>
  );
}
