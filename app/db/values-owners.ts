/** Stored values of the owners' tables (issue 23, decision 024), kept apart from values.ts to merge cleanly. */

/** Authorisation types of a captação: exclusive or not. */
export const CAPTACAO_AUTHORIZATIONS = ["exclusiva", "nao_exclusiva"] as const;
export type CaptacaoAuthorization = (typeof CAPTACAO_AUTHORIZATIONS)[number];
