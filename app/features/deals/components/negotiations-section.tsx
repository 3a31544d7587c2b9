import { useState } from "react";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { RENTAL_GUARANTEES } from "~/db/values";
import { RENTAL_GUARANTEE_LABELS } from "~/features/properties/labels";
import { firstIssueMessage } from "~/lib/form-data";
import { PAYMENT_FIELDS, PAYMENT_LABELS } from "../labels";
import type { ProposalView } from "../negotiations.server";
import { proposalSchema } from "../schema";
import { MoneyInput, useNegotiationFetcher } from "./fields";
import { ProposalCard } from "./proposal-card";

export const LISTING_MESSAGES = { leadMissing: "Escolha o lead que fez a proposta" } as const;

const PAYMENT_INPUTS = { cash_cents: "cash", financing_cents: "financing", fgts_cents: "fgts", exchange_cents: "exchange" } as const;

/** The lead page's 'Negociações' (issue 24): its proposals, newest first, and a new one. */
export function NegotiationsSection({
  proposals,
  seeCommissions,
  today,
  propertyCodigo,
}: {
  proposals: ProposalView[];
  seeCommissions: boolean;
  today: string;
  propertyCodigo: string | null;
}) {
  const [creating, setCreating] = useState(false);
  return (
    <div className="grid gap-4">
      {proposals.length === 0 && !creating && <p className="text-sm text-muted-foreground">Nenhuma proposta registrada para este lead.</p>}
      {creating ? (
        <NewProposalForm today={today} propertyCodigo={propertyCodigo} onDone={() => setCreating(false)} />
      ) : (
        <div>
          <Button variant="outline" onClick={() => setCreating(true)}>
            <Icon name="plus" /> Nova proposta
          </Button>
        </div>
      )}
      {proposals.length > 0 && (
        <ol className="grid gap-4" aria-label="Propostas do lead">
          {proposals.map((proposal) => (
            <ProposalCard key={proposal.id} proposal={proposal} seeCommissions={seeCommissions} today={today} />
          ))}
        </ol>
      )}
    </div>
  );
}

/**
 * A new proposal. On a lead's page the listing is typed by its code; on a listing's page
 * (`listing` given) the lead is chosen from `leads` and the listing is this one.
 */
export function NewProposalForm({
  today,
  propertyCodigo,
  onDone,
  listing,
}: {
  today: string;
  propertyCodigo: string | null;
  onDone: () => void;
  listing?: { codigo: string; purpose: "venda" | "aluguel"; leads: { id: string; full_name: string }[] };
}) {
  const fetcher = useNegotiationFetcher("proposal-create", onDone);
  const [kind, setKind] = useState<"venda" | "aluguel">(listing?.purpose ?? "venda");
  const [error, setError] = useState<string | undefined>();
  const saving = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      noValidate
      className="grid gap-4 rounded-md border border-border p-3 sm:p-4"
      aria-label="Nova proposta"
      onSubmit={(event) => {
        const form = new FormData(event.currentTarget);
        const parsed = proposalSchema.safeParse(Object.fromEntries(form));
        if (listing && !form.get("lead_id")) {
          event.preventDefault();
          setError(LISTING_MESSAGES.leadMissing);
          return;
        }
        if (!parsed.success) {
          event.preventDefault();
          setError(firstIssueMessage(parsed.error));
          return;
        }
        setError(undefined);
      }}
    >
      <input type="hidden" name="intent" value="proposal_create" />
      <h3 className="font-semibold">Nova proposta</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        {listing ? (
          <>
            <input type="hidden" name="property_codigo" value={listing.codigo} />
            <FormField label="Lead" hint="Os leads em aberto, primeiro os que vieram por este imóvel.">
              <NativeSelect name="lead_id" defaultValue="">
                <option value="">Escolha o lead</option>
                {listing.leads.map((lead) => (
                  <option key={lead.id} value={lead.id}>
                    {lead.full_name}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </>
        ) : (
          <FormField label="Código do imóvel" hint="O imóvel define se é venda ou aluguel.">
            <Input name="property_codigo" defaultValue={propertyCodigo ?? ""} maxLength={50} autoComplete="off" className="uppercase" />
          </FormField>
        )}
        <fieldset className={listing ? "hidden" : "grid gap-1.5"}>
          <legend className="mb-1.5 text-sm font-medium">Campos de</legend>
          <div className="flex gap-4 text-sm">
            {(["venda", "aluguel"] as const).map((option) => (
              <label key={option} className="flex items-center gap-2">
                <input type="radio" name="_kind" value={option} checked={kind === option} onChange={() => setKind(option)} className="size-4 accent-primary" />
                {option === "venda" ? "Venda" : "Aluguel"}
              </label>
            ))}
          </div>
        </fieldset>
        <FormField label={kind === "venda" ? "Valor oferecido (R$)" : "Aluguel mensal oferecido (R$)"}>
          <MoneyInput name="amount" required />
        </FormField>
        <FormField label="Validade da proposta">
          <Input type="date" name="valid_until" min={today} required />
        </FormField>
      </div>
      {kind === "venda" ? (
        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-medium">Forma de pagamento (opcional)</legend>
          {PAYMENT_FIELDS.map((field) => (
            <FormField key={field} label={`${PAYMENT_LABELS[field]} (R$)`}>
              <MoneyInput name={PAYMENT_INPUTS[field]} />
            </FormField>
          ))}
        </fieldset>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label="Garantia">
            <NativeSelect name="guarantee" defaultValue="">
              <option value="">Não informada</option>
              {RENTAL_GUARANTEES.map((guarantee) => (
                <option key={guarantee} value={guarantee}>
                  {RENTAL_GUARANTEE_LABELS[guarantee]}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField label="Início da locação">
            <Input type="date" name="starts_on" />
          </FormField>
        </div>
      )}
      <FormField label="Condições" hint="Prazo de entrega das chaves, o que fica no imóvel, etc. Até 2000 caracteres.">
        <Textarea name="conditions" rows={3} maxLength={2000} />
      </FormField>
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? "Salvando..." : "Registrar proposta"}
        </Button>
        <Button variant="outline" onClick={onDone} disabled={saving}>
          Cancelar
        </Button>
      </div>
    </fetcher.Form>
  );
}
