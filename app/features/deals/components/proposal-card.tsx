import { useRef } from "react";
import { useFetcher } from "react-router";
import type { ActionAnswer } from "~/features/crm/form-helpers";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { RENTAL_GUARANTEE_LABELS } from "~/features/properties/labels";
import { formatDate, formatDateTime } from "~/lib/format";
import { dayLabel, OFFER_PARTY_LABELS, PAYMENT_FIELDS, PAYMENT_LABELS, PROPOSAL_STATUS_LABELS, PROPOSAL_STATUS_VARIANT } from "../labels";
import { formatCents } from "../money";
import type { ProposalView } from "../negotiations.server";
import { DealForm, DealSummary } from "./deal-parts";
import { MoneyInput, useNegotiationFetcher } from "./fields";


/** Every negotiation form posts to its lead's page, wherever it is shown (the lead's or the listing's page). */
export const leadAction = (proposal: ProposalView) => `/crm/leads/${proposal.lead.id}`;

const amountText = (cents: number | null, kind: ProposalView["kind"]) => (cents === null ? "—" : `${formatCents(cents)}${kind === "aluguel" ? "/mês" : ""}`);

/** One proposal: its terms, its history of offers, and what can be done with it now. */
export function ProposalCard({ proposal, seeCommissions, today, showLead = false }: { proposal: ProposalView; seeCommissions: boolean; today: string; showLead?: boolean }) {
  const open = proposal.status === "em_negociacao";
  const standing = proposal.deals.find((deal) => deal.undoneAt === null);
  const payments = PAYMENT_FIELDS.filter((field) => proposal.payments[field] !== null);
  // The toasts of the forms that leave the card when they succeed (accepted, refused, closed): the
  // card stays, so it answers for them (the forms share these fetchers by key).
  useNegotiationFetcher(`accept-${proposal.id}`);
  useNegotiationFetcher(`reject-${proposal.id}`);
  useNegotiationFetcher(`deal-${proposal.id}`);
  return (
    <li className="grid gap-3 rounded-md border border-border p-3 sm:p-4" data-proposal={proposal.id} aria-label={`Proposta para ${proposal.property.codigo}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="break-words font-semibold">
            {proposal.property.codigo} — {proposal.property.title}
          </p>
          {showLead && <p className="text-sm">Lead: <a className="text-primary underline-offset-4 hover:underline" href={`/crm/leads/${proposal.lead.id}`}>{proposal.lead.full_name}</a></p>}
          <p className="text-sm text-muted-foreground">
            {proposal.kind === "venda" ? "Compra" : "Locação"} · anunciado por {formatCents(proposal.property.priceCents)}
            {proposal.kind === "aluguel" ? "/mês" : ""}
          </p>
        </div>
        <Badge variant={PROPOSAL_STATUS_VARIANT[proposal.status]}>{PROPOSAL_STATUS_LABELS[proposal.status]}</Badge>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-muted-foreground">Valor atual: </dt>
          <dd className="inline font-semibold" data-testid="proposal-amount">{amountText(proposal.amountCents, proposal.kind)}</dd>
        </div>
        <div>
          <dt className="inline text-muted-foreground">Válida até: </dt>
          <dd className="inline">{dayLabel(proposal.validUntil)}</dd>
        </div>
        {payments.map((field) => (
          <div key={field}>
            <dt className="inline text-muted-foreground">{PAYMENT_LABELS[field]}: </dt>
            <dd className="inline">{formatCents(proposal.payments[field]!)}</dd>
          </div>
        ))}
        {proposal.guarantee && (
          <div>
            <dt className="inline text-muted-foreground">Garantia: </dt>
            <dd className="inline">{RENTAL_GUARANTEE_LABELS[proposal.guarantee]}</dd>
          </div>
        )}
        {proposal.startsOn && (
          <div>
            <dt className="inline text-muted-foreground">Início: </dt>
            <dd className="inline">{dayLabel(proposal.startsOn)}</dd>
          </div>
        )}
      </dl>
      {proposal.conditions && <p className="whitespace-pre-wrap break-words rounded-md bg-muted p-2 text-sm">{proposal.conditions}</p>}

      <div>
        <h4 className="mb-1 text-sm font-semibold">Ofertas e contrapropostas</h4>
        <ol className="grid gap-1 text-sm" aria-label="Histórico de ofertas">
          {proposal.offers.map((offer, index) => (
            <li key={offer.id} className="flex flex-wrap gap-x-2">
              <span className="font-medium">{index === 0 ? "Proposta" : offer.party === "proprietario" ? "Contraproposta" : "Oferta"} ({OFFER_PARTY_LABELS[offer.party]}):</span>{" "}
              <span>{amountText(offer.amountCents, proposal.kind)}</span>{" "}
              <span className="text-muted-foreground">
                <time dateTime={offer.at}>{formatDateTime(offer.at)}</time>
                {offer.actor ? ` · ${offer.actor}` : ""}
              </span>
              {offer.note && <span className="w-full break-words text-muted-foreground">{offer.note}</span>}
            </li>
          ))}
        </ol>
      </div>

      {open && <OfferForm proposal={proposal} />}
      {open && <DecisionButtons proposalId={proposal.id} action={leadAction(proposal)} />}
      {proposal.status === "aceita" && !standing && <DealForm proposal={proposal} seeCommissions={seeCommissions} today={today} />}
      {proposal.deals.map((deal) => (
        <DealSummary key={deal.id} deal={deal} kind={proposal.kind} seeCommissions={seeCommissions} action={leadAction(proposal)} />
      ))}
      {proposal.decidedAt && !open && (
        <p className="text-xs text-muted-foreground">
          {PROPOSAL_STATUS_LABELS[proposal.status]} em <time dateTime={proposal.decidedAt}>{formatDate(proposal.decidedAt)}</time>
        </p>
      )}
      <div>
        <a href={`/crm/propostas/${proposal.id}/proposta.pdf`} download className={buttonClass("outline", "sm")}>
          <Icon name="download" /> Baixar proposta (PDF)
        </a>
      </div>
    </li>
  );
}

function OfferForm({ proposal }: { proposal: ProposalView }) {
  const form = useRef<HTMLFormElement>(null);
  const fetcher = useNegotiationFetcher(`offer-${proposal.id}`, () => form.current?.reset());
  const last = proposal.offers.at(-1);
  return (
    <fetcher.Form ref={form} method="post" action={leadAction(proposal)} className="grid gap-3 border-t border-border pt-3 sm:grid-cols-[auto_1fr_auto] sm:items-end" aria-label="Nova oferta ou contraproposta">
      <input type="hidden" name="intent" value="proposal_offer" />
      <input type="hidden" name="proposal_id" value={proposal.id} />
      <FormField label="Quem oferece">
        <NativeSelect name="party" defaultValue={last?.party === "proprietario" ? "cliente" : "proprietario"}>
          <option value="proprietario">Proprietário (contraproposta)</option>
          <option value="cliente">Cliente</option>
        </NativeSelect>
      </FormField>
      <FormField label="Novo valor (R$)">
        <MoneyInput name="amount" required />
      </FormField>
      <Button type="submit" variant="outline" disabled={fetcher.state !== "idle"}>
        {fetcher.state !== "idle" ? "Salvando..." : "Registrar oferta"}
      </Button>
      <FormField label="Observação (opcional)" className="sm:col-span-3">
        <Input name="note" maxLength={500} autoComplete="off" />
      </FormField>
    </fetcher.Form>
  );
}

function DecisionButtons({ proposalId, action }: { proposalId: string; action: string }) {
  const accept = useFetcher<ActionAnswer>({ key: `accept-${proposalId}` });
  const reject = useFetcher<ActionAnswer>({ key: `reject-${proposalId}` });
  const busy = accept.state !== "idle" || reject.state !== "idle";
  return (
    <div className="flex flex-wrap gap-2">
      <accept.Form method="post" action={action}>
        <input type="hidden" name="intent" value="proposal_accept" />
        <input type="hidden" name="proposal_id" value={proposalId} />
        <Button type="submit" disabled={busy}>
          <Icon name="circle-check" /> Aceitar proposta
        </Button>
      </accept.Form>
      <reject.Form method="post" action={action}>
        <input type="hidden" name="intent" value="proposal_reject" />
        <input type="hidden" name="proposal_id" value={proposalId} />
        <Button type="submit" variant="outline" disabled={busy}>
          <Icon name="x" /> Recusar
        </Button>
      </reject.Form>
    </div>
  );
}
