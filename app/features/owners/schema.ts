import * as z from "zod/mini";
import { CAPTACAO_AUTHORIZATIONS } from "~/db/values-owners";
import { choice, MESSAGES, optionalEmail, optionalText, PHONE_PATTERN, text } from "~/lib/validation";
import { normalizeDocument } from "./document";

/** The owners' forms (/crm/proprietarios), checked in the action; messages in Portuguese. */

export const OWNER_MESSAGES = {
  nameMin: "Nome deve ter pelo menos 2 caracteres",
  nameMax: "Nome muito longo (máximo 120 caracteres)",
  phone: "Telefone inválido. Use formato (84) 99999-9999",
  document: "CPF ou CNPJ inválido: confira os números",
  notes: "Observações muito longas (máximo 2000 caracteres)",
  search: "Busca muito longa (máximo 100 caracteres)",
  created: "Proprietário cadastrado",
  saved: "Proprietário salvo",
  deleted: "Proprietário excluído",
  notFound: "Proprietário não encontrado",
  propertyNotFound: "Imóvel não encontrado",
  linked: "Imóvel vinculado",
  alreadyLinked: "Este imóvel já está vinculado",
  unlinked: "Vínculo removido",
  authorization: "Escolha o tipo de autorização",
  date: "Data inválida",
  dates: "A data de término deve ser igual ou posterior à de início",
  commission: "Comissão inválida: informe um percentual entre 0 e 100",
  keys: "Local das chaves muito longo (máximo 200 caracteres)",
  captacaoSaved: "Captação salva",
  reportNote: "Nota do relatório muito longa (máximo 1000 caracteres)",
  reportQueued: (count: number) => `Relatório enviado para a fila de e-mails (${count} ${count === 1 ? "imóvel" : "imóveis"})`,
  reportNoEmail: "Este proprietário não tem e-mail ou pediu para não receber o relatório",
  reportNoListings: "Este proprietário não tem imóveis vinculados",
  documentSaved: "Autorização (PDF) enviada",
  documentRemoved: "Autorização (PDF) removida",
  documentMissing: "Escolha o arquivo PDF da autorização",
  documentNotPdf: "O arquivo não é um PDF",
  documentTooLarge: "Arquivo maior que 10 MB",
  documentFailed: "Não foi possível guardar o arquivo agora. Tente de novo.",
  anonymized: "Dados do proprietário anonimizados",
  alreadyAnonymized: "Este proprietário já foi anonimizado",
  adminOnly: "Somente administradores podem fazer isso",
  unknownIntent: "Ação desconhecida",
} as const;

export const AUTHORIZATION_LABELS: Record<(typeof CAPTACAO_AUTHORIZATIONS)[number], string> = {
  exclusiva: "Exclusiva",
  nao_exclusiva: "Não exclusiva",
};

const optionalPhone = () =>
  z.pipe(
    z.optional(z.nullable(z.string({ error: OWNER_MESSAGES.phone }))),
    z.transform((value) => value?.trim() || undefined),
  ).check(z.refine((value) => value === undefined || (value.length <= 20 && PHONE_PATTERN.test(value)), { error: OWNER_MESSAGES.phone }));

const optionalDocument = () =>
  z.pipe(
    z.optional(z.nullable(z.string({ error: OWNER_MESSAGES.document }))),
    z.transform((value, context) => {
      const trimmed = value?.trim();
      if (!trimmed) return undefined;
      const digits = trimmed.length <= 20 ? normalizeDocument(trimmed) : null;
      if (!digits) {
        context.issues.push({ code: "custom", message: OWNER_MESSAGES.document, input: value });
        return z.NEVER;
      }
      return digits;
    }),
  );

export const ownerSchema = z.object({
  full_name: text(2, 120, { min: OWNER_MESSAGES.nameMin, max: OWNER_MESSAGES.nameMax }, { invalid: MESSAGES.nameInvalid }),
  phone: optionalPhone(),
  email: optionalEmail(),
  document: optionalDocument(),
  notes: optionalText(2000, OWNER_MESSAGES.notes, { multiline: true }),
  /** A checkbox: "on" when ticked, absent otherwise. */
  report_opt_out: z.pipe(z.optional(z.string()), z.transform((value) => value === "on" || value === "true")),
});
export type OwnerInput = z.infer<typeof ownerSchema>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isRealDay = (value: string) => {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && value >= "1990-01-01" && value <= "2100-12-31";
};

const optionalDay = () =>
  z.pipe(
    z.optional(z.nullable(z.string({ error: OWNER_MESSAGES.date }))),
    z.transform((value) => value?.trim() || undefined),
  ).check(z.refine((value) => value === undefined || isRealDay(value), { error: OWNER_MESSAGES.date }));

const optionalPercent = () =>
  z.pipe(
    z.optional(z.nullable(z.string({ error: OWNER_MESSAGES.commission }))),
    z.transform((value, context) => {
      const trimmed = value?.trim().replace("%", "").trim();
      if (!trimmed) return undefined;
      const number = /^\d{1,3}([.,]\d{1,2})?$/.test(trimmed) ? Number(trimmed.replace(",", ".")) : NaN;
      if (!Number.isFinite(number) || number < 0 || number > 100) {
        context.issues.push({ code: "custom", message: OWNER_MESSAGES.commission, input: value });
        return z.NEVER;
      }
      return number;
    }),
  );

export const captacaoSchema = z
  .object({
    authorization_type: choice(CAPTACAO_AUTHORIZATIONS, OWNER_MESSAGES.authorization),
    starts_on: optionalDay(),
    ends_on: optionalDay(),
    commission: optionalPercent(),
    keys_location: optionalText(200, OWNER_MESSAGES.keys),
    report_note: optionalText(1000, OWNER_MESSAGES.reportNote, { multiline: true }),
  })
  .check(
    z.refine((value) => !value.starts_on || !value.ends_on || value.ends_on >= value.starts_on, {
      error: OWNER_MESSAGES.dates,
      path: ["ends_on"],
    }),
  );
export type CaptacaoInput = z.infer<typeof captacaoSchema>;

/** The list's search: name, e-mail, phone or CPF/CNPJ; at most 100 characters. */
export function parseOwnerSearch(value: string | null): { ok: true; q: string } | { ok: false; message: string } {
  const q = (value ?? "").trim();
  if (q.length > 100) return { ok: false, message: OWNER_MESSAGES.search };
  return { ok: true, q };
}
