/** Stored values of the proposals' and deals' tables (issue 24, decision 026), apart from values.ts to merge cleanly. */

/** A proposal's state: open, or decided (accepted, refused), or past its validity date. */
export const PROPOSAL_STATUSES = ["em_negociacao", "aceita", "recusada", "expirada"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** Who made an offer: the lead (buyer or tenant) or the owner (a counter-offer). */
export const OFFER_PARTIES = ["cliente", "proprietario"] as const;
export type OfferParty = (typeof OFFER_PARTIES)[number];

/** The commission's payment to the broker. */
export const COMMISSION_STATUSES = ["a_receber", "recebida"] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];
