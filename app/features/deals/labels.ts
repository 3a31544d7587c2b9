import type { CommissionStatus, OfferParty, ProposalStatus } from "~/db/values-deals";

export const PROPOSAL_STATUS_LABELS: Record<ProposalStatus, string> = {
  em_negociacao: "Em negociação",
  aceita: "Aceita",
  recusada: "Recusada",
  expirada: "Expirada",
};

export const PROPOSAL_STATUS_VARIANT = {
  em_negociacao: "warning",
  aceita: "success",
  recusada: "danger",
  expirada: "secondary",
} as const satisfies Record<ProposalStatus, string>;

export const OFFER_PARTY_LABELS: Record<OfferParty, string> = { cliente: "Cliente", proprietario: "Proprietário" };

export const COMMISSION_STATUS_LABELS: Record<CommissionStatus, string> = { a_receber: "A receber", recebida: "Recebida" };

export const PAYMENT_LABELS = { cash_cents: "À vista", financing_cents: "Financiamento", fgts_cents: "FGTS", exchange_cents: "Permuta" } as const;
export const PAYMENT_FIELDS = ["cash_cents", "financing_cents", "fgts_cents", "exchange_cents"] as const;
export type PaymentField = (typeof PAYMENT_FIELDS)[number];

/** "2026-11-30" → "30/11/2026": a calendar day, with no time zone to apply. */
export const dayLabel = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
