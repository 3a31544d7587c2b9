import * as z from "zod/mini";
import { RETENTION_MONTHS } from "./markers";

/** The privacy screen's inputs (/crm/privacidade), checked on the server; messages in Portuguese. */

export const PRIVACY_MESSAGES = {
  searchEmpty: "Informe um telefone ou um e-mail",
  searchInvalid: "Informe um telefone com DDD (10 a 13 dígitos) ou um e-mail válido",
  notFound: "Nenhum lead ou alerta encontrado com esse telefone ou e-mail",
  alertsNotFound: "Alerta não encontrado. Ele pode já ter sido apagado.",
  alertsDeleted: (count: number) => `${count} ${count === 1 ? "alerta apagado" : "alertas apagados"}, com os links e e-mails deles`,
  leadNotFound: "Lead não encontrado",
  changed: "Os registros deste titular mudaram desde que a página abriu. Confira a lista e confirme de novo.",
  alreadyAnonymized: "Este titular já foi anonimizado",
  anonymized: (count: number) => `Dados anonimizados em ${count} ${count === 1 ? "lead" : "leads"}`,
  anonymizeFailed: "Não foi possível anonimizar agora. Tente de novo.",
  retentionInvalid: `Informe um prazo entre ${RETENTION_MONTHS.min} e ${RETENTION_MONTHS.max} meses`,
  retentionSaved: "Prazo de guarda salvo",
  unknownIntent: "Ação desconhecida",
  formatInvalid: "Formato inválido: use json ou csv",
} as const;

/** A phone (any formatting, optionally with +55) or an e-mail; which one is told by the "@". */
export type PersonQuery = { kind: "phone"; digits: string[] } | { kind: "email"; email: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function parsePersonQuery(input: unknown): { ok: true; query: PersonQuery } | { ok: false; message: string } {
  const value = typeof input === "string" ? input.trim() : "";
  if (!value) return { ok: false, message: PRIVACY_MESSAGES.searchEmpty };
  if (value.length > 255) return { ok: false, message: PRIVACY_MESSAGES.searchInvalid };
  if (value.includes("@")) {
    return EMAIL.test(value) ? { ok: true, query: { kind: "email", email: value.toLowerCase() } } : { ok: false, message: PRIVACY_MESSAGES.searchInvalid };
  }
  // Only digits and the usual phone punctuation: anything else is not a phone.
  if (!/^[\d\s()+.\-]+$/.test(value)) return { ok: false, message: PRIVACY_MESSAGES.searchInvalid };
  const digits = value.replace(/\D/g, "");
  if (digits.length < 10 || digits.length > 13) return { ok: false, message: PRIVACY_MESSAGES.searchInvalid };
  // "+55 84 9…" finds a lead stored as "(84) 9…", and the other way round.
  const candidates = new Set([digits]);
  if (digits.startsWith("55") && digits.length >= 12) candidates.add(digits.slice(2));
  if (digits.length <= 11) candidates.add(`55${digits}`);
  return { ok: true, query: { kind: "phone", digits: [...candidates] } };
}

export const retentionSchema = z.object(
  {
    months: z.pipe(
      z.string({ error: PRIVACY_MESSAGES.retentionInvalid }),
      z.transform((value, context) => {
        const trimmed = value.trim();
        const months = /^\d{1,3}$/.test(trimmed) ? Number(trimmed) : NaN;
        if (!Number.isInteger(months) || months < RETENTION_MONTHS.min || months > RETENTION_MONTHS.max) {
          context.issues.push({ code: "custom", message: PRIVACY_MESSAGES.retentionInvalid, input: value });
          return z.NEVER;
        }
        return months;
      }),
    ),
  },
  { error: PRIVACY_MESSAGES.retentionInvalid },
);
