import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { useAnswerToast } from "~/features/crm/form-helpers";
import type { SettingsAnswer } from "~/features/settings/keys";
import type { DealSettings } from "../deal-settings";
import { formatPercent } from "../money";

/** 'Negócios e comissões' (issue 24): the deals' default commissions and whether corretores see them. */
export function DealSettingsForm({ settings }: { settings: DealSettings }) {
  const fetcher = useFetcher<SettingsAnswer>();
  useAnswerToast({ state: fetcher.state, data: fetcher.data });
  const errors = fetcher.state === "idle" && fetcher.data?.intent === "deals" && !fetcher.data.ok ? (fetcher.data.errors ?? {}) : {};
  return (
    <Card className="p-4 sm:p-6">
      <h2 className="text-lg font-semibold">Negócios e comissões</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        O percentual com que cada negócio fechado começa; ele pode ser mudado em cada negócio. Numa venda, o percentual da captação do imóvel, quando houver, vem antes deste.
      </p>
      <fetcher.Form method="post" action="/crm/configuracoes" noValidate className="mt-5 grid max-w-xl gap-4">
        <input type="hidden" name="intent" value="deals" />
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Comissão padrão de venda (%)" error={errors.salePercent} hint="Sobre o valor final da venda.">
            <Input name="salePercent" defaultValue={formatPercent(settings.salePercent)} inputMode="decimal" maxLength={6} />
          </FormField>
          <FormField label="Comissão padrão de aluguel (% do 1º aluguel)" error={errors.rentFirstRentPercent} hint="100 = o primeiro aluguel inteiro.">
            <Input name="rentFirstRentPercent" defaultValue={formatPercent(settings.rentFirstRentPercent)} inputMode="decimal" maxLength={6} />
          </FormField>
        </div>
        <label className="flex items-center gap-3 text-sm font-medium">
          <input type="checkbox" name="corretorSeesCommissions" defaultChecked={settings.corretorSeesCommissions} className="size-5 shrink-0 accent-primary" />
          Corretores veem e alteram comissões e divisões (sem isto, só administradores)
        </label>
        <div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            <Icon name="briefcase" />
            {fetcher.state !== "idle" ? "Salvando..." : "Salvar comissões"}
          </Button>
        </div>
      </fetcher.Form>
    </Card>
  );
}
