import { useState } from "react";
import { useFetcher } from "react-router";
import type { ActionAnswer } from "~/features/crm/form-helpers";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { Icon } from "~/components/ui/icon";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { COMMISSION_STATUSES } from "~/db/values-deals";
import { COMMISSION_STATUS_LABELS, dayLabel } from "../labels";
import { centsToInput, formatCents, formatPercent } from "../money";
import type { DealView, ProposalView, SplitView } from "../negotiations.server";
import { MAX_SPLITS } from "../schema";
import { MoneyInput, useNegotiationFetcher } from "./fields";

/** The partners' rows (name, CRECI, % of the commission); empty rows are ignored by the action. */
function SplitRows({ splits }: { splits: SplitView[] }) {
  const [rows, setRows] = useState(Math.max(1, splits.length));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Divisão com parceiros (% da comissão; o restante fica com você)</legend>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="grid gap-2 sm:grid-cols-[2fr_1fr_1fr]">
          <FormField label={`Parceiro ${index + 1}: nome`}>
            <Input name={`split.${index}.name`} defaultValue={splits[index]?.name ?? ""} maxLength={120} autoComplete="off" />
          </FormField>
          <FormField label="CRECI">
            <Input name={`split.${index}.creci`} defaultValue={splits[index]?.creci ?? ""} maxLength={30} autoComplete="off" />
          </FormField>
          <FormField label="% da comissão">
            <Input name={`split.${index}.percent`} defaultValue={splits[index] ? formatPercent(splits[index].percent) : ""} inputMode="decimal" maxLength={6} autoComplete="off" />
          </FormField>
        </div>
      ))}
      {rows < MAX_SPLITS && (
        <div>
          <Button variant="ghost" size="sm" onClick={() => setRows(rows + 1)}>
            <Icon name="plus" /> Outro parceiro
          </Button>
        </div>
      )}
    </fieldset>
  );
}

/** Closing an accepted proposal: final value, date and (for who may see it) the commission. */
export function DealForm({ proposal, seeCommissions, today }: { proposal: ProposalView; seeCommissions: boolean; today: string }) {
  // Its toast is the card's (this form leaves once the deal is closed).
  const fetcher = useFetcher<ActionAnswer>({ key: `deal-${proposal.id}` });
  return (
    <fetcher.Form method="post" action={`/crm/leads/${proposal.lead.id}`} className="grid gap-3 rounded-md bg-muted/60 p-3" aria-label="Fechar negócio">
      <input type="hidden" name="intent" value="deal_create" />
      <input type="hidden" name="proposal_id" value={proposal.id} />
      <h4 className="font-semibold">Fechar negócio</h4>
      <p className="text-sm text-muted-foreground">
        Ao fechar, o imóvel passa a {proposal.kind === "venda" ? "vendido" : "alugado"} (sai da lista do site) e o lead a convertido.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label={proposal.kind === "venda" ? "Valor final (R$)" : "Aluguel mensal final (R$)"}>
          <MoneyInput name="final_value" defaultValue={centsToInput(proposal.amountCents)} required />
        </FormField>
        <FormField label="Data do fechamento">
          <Input type="date" name="closed_on" defaultValue={today} required />
        </FormField>
        {seeCommissions && (
          <>
            <FormField label="Comissão (%)" hint={proposal.kind === "venda" ? "Padrão: o da captação ou das configurações." : "Padrão: % do primeiro aluguel, das configurações."}>
              <Input name="commission_percent" defaultValue={proposal.defaultCommissionPercent !== null ? formatPercent(proposal.defaultCommissionPercent) : ""} inputMode="decimal" maxLength={6} />
            </FormField>
            <FormField label="Vencimento da comissão">
              <Input type="date" name="commission_due_on" />
            </FormField>
          </>
        )}
      </div>
      {seeCommissions && <SplitRows splits={[]} />}
      <div>
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          <Icon name="briefcase" /> {fetcher.state !== "idle" ? "Salvando..." : "Fechar negócio"}
        </Button>
      </div>
    </fetcher.Form>
  );
}

/** A deal closed (or undone), its commission and split for who may see them, and what can be done with it. */
export function DealSummary({ deal, kind, seeCommissions, action }: { deal: DealView; kind: ProposalView["kind"]; seeCommissions: boolean; action: string }) {
  const standing = deal.undoneAt === null;
  const [editing, setEditing] = useState(false);
  // The forms below come and go; the summary stays and toasts their answers.
  useNegotiationFetcher(`undo-${deal.id}`);
  useNegotiationFetcher(`commission-${deal.id}`, () => setEditing(false));
  return (
    <div className={`grid gap-2 rounded-md border p-3 ${standing ? "border-green-300 bg-green-50" : "border-border bg-muted/40"}`} data-deal={deal.id}>
      <p className="font-semibold">
        {standing ? "Negócio fechado" : "Negócio desfeito"}: {formatCents(deal.finalValueCents)}
        {kind === "aluguel" ? "/mês" : ""} em {dayLabel(deal.closedOn)}
      </p>
      {!standing && (
        <p className="text-sm text-muted-foreground">
          Desfeito{deal.undoneBy ? ` por ${deal.undoneBy}` : ""}
          {deal.undoReason ? `: ${deal.undoReason}` : ""}
        </p>
      )}
      {deal.commission && (
        <div className="grid gap-1 text-sm" data-testid="deal-commission">
          <p>
            Comissão: {formatPercent(deal.commission.percent)}% = <strong>{formatCents(deal.commission.cents)}</strong> · {COMMISSION_STATUS_LABELS[deal.commission.status]}
            {deal.commission.status === "recebida" && deal.commission.paidOn ? ` em ${dayLabel(deal.commission.paidOn)}` : ""}
            {deal.commission.status === "a_receber" && deal.commission.dueOn ? ` (vence ${dayLabel(deal.commission.dueOn)})` : ""}
          </p>
          <ul className="grid gap-0.5" aria-label="Divisão da comissão">
            <li>
              Você: {formatPercent(deal.commission.brokerPercent)}% = {formatCents(deal.commission.brokerCents)}
            </li>
            {deal.commission.splits.map((split, index) => (
              <li key={index}>
                {split.name}
                {split.creci ? ` (CRECI ${split.creci})` : ""}: {formatPercent(split.percent)}% = {formatCents(split.cents)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {standing && (
        <div className="flex flex-wrap gap-2">
          {seeCommissions && deal.commission && (
            <Button variant="outline" size="sm" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              <Icon name="pencil" /> Comissão
            </Button>
          )}
          <UndoForm dealId={deal.id} action={action} />
        </div>
      )}
      {standing && editing && deal.commission && <CommissionForm deal={deal} action={action} />}
    </div>
  );
}

function UndoForm({ dealId, action }: { dealId: string; action: string }) {
  const [asking, setAsking] = useState(false);
  const fetcher = useFetcher<ActionAnswer>({ key: `undo-${dealId}` });
  if (!asking)
    return (
      <Button variant="outline" size="sm" onClick={() => setAsking(true)}>
        <Icon name="arrow-left" /> Desfazer negócio
      </Button>
    );
  return (
    <fetcher.Form method="post" action={action} className="grid w-full gap-2" aria-label="Desfazer negócio">
      <input type="hidden" name="intent" value="deal_undo" />
      <input type="hidden" name="deal_id" value={dealId} />
      <FormField label="Motivo (opcional)" hint="O imóvel volta a disponível e o lead a em atendimento.">
        <Input name="reason" maxLength={500} autoComplete="off" />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" variant="destructive" size="sm" disabled={fetcher.state !== "idle"}>
          Confirmar: desfazer
        </Button>
        <Button variant="outline" size="sm" onClick={() => setAsking(false)}>
          Cancelar
        </Button>
      </div>
    </fetcher.Form>
  );
}

function CommissionForm({ deal, action }: { deal: DealView; action: string }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `commission-${deal.id}` });
  const commission = deal.commission!;
  return (
    <fetcher.Form method="post" action={action} className="grid gap-3 border-t border-border pt-3" aria-label="Comissão">
      <input type="hidden" name="intent" value="deal_commission" />
      <input type="hidden" name="deal_id" value={deal.id} />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="Comissão (%)">
          <Input name="commission_percent" defaultValue={formatPercent(commission.percent)} inputMode="decimal" maxLength={6} />
        </FormField>
        <FormField label="Situação">
          <NativeSelect name="commission_status" defaultValue={commission.status}>
            {COMMISSION_STATUSES.map((status) => (
              <option key={status} value={status}>
                {COMMISSION_STATUS_LABELS[status]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label="Vencimento">
          <Input type="date" name="commission_due_on" defaultValue={commission.dueOn ?? ""} />
        </FormField>
        <FormField label="Recebida em" hint="Vazio com 'Recebida': hoje.">
          <Input type="date" name="commission_paid_on" defaultValue={commission.paidOn ?? ""} />
        </FormField>
      </div>
      <SplitRows splits={commission.splits} />
      <div>
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? "Salvando..." : "Salvar comissão"}
        </Button>
      </div>
    </fetcher.Form>
  );
}

