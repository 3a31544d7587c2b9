/**
 * What an anonymised person's data is replaced with (LGPD art. 18). The values fit the leads
 * table's check constraints (full_name 2–100 characters, phone 10–20) and no real contact can
 * have them: a Brazilian phone is never all zeros, and ".invalid" is a top-level domain reserved
 * never to exist (RFC 2606), so no e-mail can reach it.
 */
export const ANONYMIZED = {
  name: "Titular anonimizado",
  phone: "00000000000",
  text: "[conteúdo removido a pedido do titular ou pelo prazo de guarda (LGPD)]",
  emailAddress: "anonimizado@anonimizado.invalid",
  emailSubject: "[mensagem anonimizada (LGPD)]",
  /** A message still waiting to go out is not sent: its content is gone. */
  cancelledMail: "Não enviada: dados anonimizados (LGPD)",
} as const;

export const RETENTION_MONTHS = { key: "retention_months", default: 24, min: 6, max: 120 } as const;

/** Whether a lead row carries the marker (used by screens; the database test reads the same). */
export const isAnonymized = (lead: { full_name: string; phone: string }) =>
  lead.full_name === ANONYMIZED.name && lead.phone === ANONYMIZED.phone;
