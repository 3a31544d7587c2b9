/** The lead forms' fixed texts (spec §8), apart from the schemas so pages can show them without zod. */

/** A hidden field people never see or fill; bots that fill every field give themselves away. */
export const HONEYPOT_FIELD = "website";

export const LEAD_MESSAGES = {
  bookingSuccess: "Agendamento realizado com sucesso! Entraremos em contato em breve.",
  bookingFailure: "Erro ao agendar visita. Tente novamente.",
  contactSuccess: "Mensagem enviada! Redirecionando para o WhatsApp...",
  contactFailure: "Erro ao enviar mensagem. Tente novamente.",
  tooMany: "Você já enviou várias mensagens nesta hora. Tente novamente mais tarde ou fale pelo WhatsApp.",
} as const;
