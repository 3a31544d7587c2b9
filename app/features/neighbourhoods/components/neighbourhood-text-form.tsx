import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Textarea } from "~/components/ui/textarea";
import { useAnswerToast } from "~/features/crm/form-helpers";
import { formatNumber } from "~/lib/format";
import { NEIGHBOURHOOD_TEXT_MAX } from "../text-schema";

export type NeighbourhoodTextAnswer = { ok: boolean; message: string; slug?: string; field?: "slug" | "text" };

export type NeighbourhoodTextRow = {
  slug: string;
  name: string;
  place: string;
  summary: string;
  text: string;
  /** "Atualizado em 25/11/2026 por ana@…", or null when the broker wrote nothing yet. */
  updated: string | null;
};

/** One neighbourhood's text on /crm/bairros: its own form, its own answer. */
export function NeighbourhoodTextForm({ row }: { row: NeighbourhoodTextRow }) {
  const fetcher = useFetcher<NeighbourhoodTextAnswer>();
  useAnswerToast({ state: fetcher.state, data: fetcher.data });
  const [length, setLength] = useState(row.text.length);
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.message : undefined;
  const headingId = `bairro-${row.slug}`;
  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {row.name}
        </h2>
        <Link to={`/imoveis/bairro/${row.slug}`} className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline">
          Ver página <Icon name="external-link" className="size-4" />
        </Link>
      </div>
      <p className="text-sm text-muted-foreground">
        {row.place} · {row.summary}
      </p>
      <fetcher.Form method="post" action="/crm/bairros" noValidate className="mt-4 grid gap-3">
        <input type="hidden" name="slug" value={row.slug} />
        <FormField
          label={`Texto sobre ${row.name}`}
          error={error}
          hint={`${formatNumber(length)} de ${formatNumber(NEIGHBOURHOOD_TEXT_MAX)} caracteres. Aparece na página do bairro; em branco, a página fica sem texto.`}
        >
          <Textarea name="text" defaultValue={row.text} rows={4} maxLength={NEIGHBOURHOOD_TEXT_MAX} onChange={(event) => setLength(event.currentTarget.value.length)} />
        </FormField>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            <Icon name="check" />
            {fetcher.state !== "idle" ? "Salvando..." : "Salvar texto"}
          </Button>
          {row.updated && <span className="text-xs text-muted-foreground">{row.updated}</span>}
        </div>
      </fetcher.Form>
    </Card>
  );
}
