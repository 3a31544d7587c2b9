/** 'Avise-me' texts (decision 025), apart from the schema so the /imoveis form needs no zod. */
export const ALERT_MESSAGES = {
  formTitle: "Me avise quando surgir um imóvel assim",
  formHint: "Enviamos no máximo um e-mail por dia com os imóveis novos ou que baixaram de preço nesta busca.",
  subscribed: "Quase pronto! Enviamos um e-mail de confirmação. Abra o link dele para ativar o alerta.",
  tooMany: "Você já pediu vários alertas nesta hora. Tente novamente mais tarde.",
  perEmail: "Este e-mail já tem o número máximo de alertas. Cancele algum pelo link dos nossos e-mails.",
  failure: "Erro ao criar o alerta. Tente novamente.",
  query: "Busca inválida ou longa demais",
  notFound: "Este link não vale mais. Os links dos alertas valem por 60 dias; crie um novo alerta em /imoveis.",
  confirmed: "Alerta confirmado! Você receberá no máximo um e-mail por dia quando surgirem imóveis assim.",
  cancelled: "Alerta cancelado e apagado. Você não receberá mais e-mails dele.",
  badAction: "Ação inválida",
} as const;

/** Alerts per e-mail address; pending alerts expire after ALERT_PENDING_DAYS, links after ALERT_LINK_DAYS. */
export const ALERT_LIMITS = { perEmail: 10, perHour: 10, queryLength: 1000, listingsPerDigest: 12 } as const;
export const ALERT_PENDING_DAYS = 7;
export const ALERT_LINK_DAYS = 60;
