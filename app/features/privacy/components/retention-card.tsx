import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";

/** The retention period (months) the daily job applies, and how many leads are past it today. */
export function RetentionCard({ months, min, max, expired }: { months: number; min: number; max: number; expired: number }) {
  const fetcher = useFetcher<ActionAnswer>({ key: "privacy-retention" });
  useAnswerToast(fetcher);
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.message : undefined;
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="privacy-retention-title">
      <h2 id="privacy-retention-title" className="mb-2 flex items-center gap-2 text-base font-semibold">
        <Icon name="history" className="size-4 text-primary" /> Prazo de guarda
      </h2>
      <p className="mb-3 text-sm text-muted-foreground">
        Uma vez por dia, os leads sem nenhuma atividade (criação, anotação, mudança de status ou visita) há mais de {months}{" "}
        meses são anonimizados automaticamente, como promete a{" "}
        <a href="/privacidade" className="text-primary underline">
          Política de Privacidade
        </a>
        .{" "}
        {expired === 0
          ? "Hoje nenhum lead passou do prazo."
          : `Hoje ${expired} ${expired === 1 ? "lead passou" : "leads passaram"} do prazo e ${expired === 1 ? "será anonimizado" : "serão anonimizados"} na próxima rodada.`}
      </p>
      <fetcher.Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
        <input type="hidden" name="intent" value="retention" />
        <FormField label="Prazo de guarda (meses)" hint={`Entre ${min} e ${max} meses.`} error={error} className="sm:w-64">
          <Input key={months} name="months" type="number" inputMode="numeric" min={min} max={max} step={1} defaultValue={months} required />
        </FormField>
        <Button type="submit" disabled={fetcher.state !== "idle"} className="sm:mt-[1.625rem]">
          {fetcher.state !== "idle" ? "Salvando..." : "Salvar prazo"}
        </Button>
      </fetcher.Form>
    </Card>
  );
}
