/**
 * What visitors are told when the site cannot answer right now (issue 21): the database is down,
 * frozen or out of disk, or the server is shedding load. Worded like the overload guard's answer
 * (server/overload.ts), and sent with status 503 and Retry-After.
 */
export const DATABASE_UNAVAILABLE_MESSAGE = "Serviço indisponível no momento. Tente novamente em alguns segundos.";

/** Seconds a client is asked to wait (Retry-After) when the database cannot answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The error page's words for the same condition (its heading already says "Serviço indisponível"). */
export const DATABASE_UNAVAILABLE_PAGE = {
  title: "Serviço indisponível",
  detail: "Não foi possível carregar esta página agora. Tente novamente em alguns segundos.",
} as const;
