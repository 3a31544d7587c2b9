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
};

export function mailKindLabel(kind: string): string {
  return MAIL_KIND_LABELS[kind] ?? kind;
}
