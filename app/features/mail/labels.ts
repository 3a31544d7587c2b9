/** What each kind of message is, for the CRM's list (kinds are set by whoever enqueues). */
const MAIL_KIND_LABELS: Record<string, string> = {
  "verify-email": "Confirmação de e-mail",
  "signup-existing": "Aviso de cadastro repetido",
  "reset-password": "Redefinição de senha",
  "password-reset": "Redefinição de senha",
  invite: "Convite",
  invitation: "Convite",
  "lead-alert": "Aviso de novo lead",
  owner_report: "Relatório do proprietário",
  reminder: "Lembrete de próximo contato",
  "visit-confirmation": "Confirmação de visita ao visitante",
  "visit-update": "Visita reagendada (ao visitante)",
  "visit-cancellation": "Visita cancelada (ao visitante)",
  "visit-reminder": "Lembrete de visita ao visitante",
};

export function mailKindLabel(kind: string): string {
  return MAIL_KIND_LABELS[kind] ?? kind;
}
