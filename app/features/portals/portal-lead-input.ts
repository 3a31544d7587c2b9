import * as z from "zod/mini";
import type { LeadInterest } from "~/db/values";
import { fullName, hasInvalidCharacters, optionalEmail } from "~/lib/validation";

/**
 * What a portal's lead post may hold and how it becomes our lead's fields (issue 13; the choices
 * are listed in portal-leads.server.ts, which receives the post). Pure: no database, no request.
 */

export const DEFAULT_PORTAL_NAME = "Grupo OLX";
export const MAX_NOTES = 1000;

export const PORTAL_LEAD_MESSAGES = {
  method: "Use POST para enviar leads.",
  unauthorized: "Autenticação inválida: use HTTP Basic com o usuário vivareal e a senha das configurações.",
  tooLarge: "Conteúdo grande demais: o limite é de 64 KB.",
  notJson: "Corpo inválido: envie um objeto JSON.",
  notUtf8: "Corpo com caracteres fora do UTF-8: envie o JSON em UTF-8.",
  leadIdRequired: "Campo originLeadId obrigatório.",
  leadIdInvalid: "Campo originLeadId inválido: use de 1 a 200 caracteres, sem caracteres de controle.",
  portalName: "Campo leadOrigin inválido: use até 60 caracteres, sem caracteres de controle.",
  temperature: "Campo temperature inválido: use até 30 caracteres, sem caracteres de controle.",
  transactionType: "Campo transactionType inválido.",
  listing: "Campo clientListingId inválido.",
  message: "Campo message inválido: texto sem caracteres de controle.",
  phoneRequired: "Telefone obrigatório: envie ddd e phone.",
  phoneInvalid: "Telefone inválido: envie ddd com 2 dígitos e phone com 8 ou 9 dígitos.",
  failure: "Não foi possível salvar o lead agora. Tente novamente.",
} as const;

/** A short line of text, or a number sent as one (ids and DDDs arrive either way); empty → undefined. */
function optionalLine(max: number, message: string) {
  return z
    .pipe(
      z.optional(z.nullable(z.union([z.string({ error: message }), z.number({ error: message })], { error: message }))),
      z.transform((value) => (value === undefined || value === null ? undefined : String(value).trim() || undefined)),
    )
    .check(
      z.refine((value) => value === undefined || value.length <= max, { error: message }),
      z.refine((value) => value === undefined || !hasInvalidCharacters(value), { error: message }),
    );
}

/** The lead's message: line breaks allowed, control characters refused, cut (not refused) at 1000. */
const messageField = z
  .pipe(
    z.optional(z.nullable(z.string({ error: PORTAL_LEAD_MESSAGES.message }))),
    z.transform((value) => value?.trim() || undefined),
  )
  .check(z.refine((value) => value === undefined || !hasInvalidCharacters(value, true), { error: PORTAL_LEAD_MESSAGES.message }));

export const portalLeadSchema = z.object(
  {
    originLeadId: z
      .pipe(
        z.optional(z.nullable(z.union([z.string(), z.number()], { error: PORTAL_LEAD_MESSAGES.leadIdInvalid }))),
        z.transform((value) => (value === undefined || value === null ? "" : String(value).trim())),
      )
      .check(
        z.minLength(1, { error: PORTAL_LEAD_MESSAGES.leadIdRequired }),
        z.maxLength(200, { error: PORTAL_LEAD_MESSAGES.leadIdInvalid }),
        z.refine((value) => !hasInvalidCharacters(value), { error: PORTAL_LEAD_MESSAGES.leadIdInvalid }),
      ),
    leadOrigin: optionalLine(60, PORTAL_LEAD_MESSAGES.portalName),
    name: fullName(),
    email: optionalEmail(),
    ddd: optionalLine(10, PORTAL_LEAD_MESSAGES.phoneInvalid),
    phone: optionalLine(30, PORTAL_LEAD_MESSAGES.phoneInvalid),
    phoneNumber: optionalLine(30, PORTAL_LEAD_MESSAGES.phoneInvalid),
    message: messageField,
    temperature: optionalLine(30, PORTAL_LEAD_MESSAGES.temperature),
    transactionType: optionalLine(30, PORTAL_LEAD_MESSAGES.transactionType),
    // Longer than any código of ours: it simply matches nothing (stored unlinked).
    clientListingId: optionalLine(200, PORTAL_LEAD_MESSAGES.listing),
  },
  { error: PORTAL_LEAD_MESSAGES.notJson },
);

export type PortalLeadInput = z.infer<typeof portalLeadSchema>;

/**
 * The lead's phone in the site's format, "(84) 99999-1234" or "(84) 3222-1234", from the
 * portal's ddd + phone (a phone that already starts with the DDD, or with 55, is understood),
 * else from the deprecated phoneNumber. null: none sent; "invalid": not a Brazilian number.
 */
export function portalPhone(input: { ddd?: string; phone?: string; phoneNumber?: string }): string | null | "invalid" {
  const digits = (value: string | undefined) => (value ?? "").replace(/\D/g, "");
  const withoutCountry = (value: string) => (value.length >= 12 && value.startsWith("55") ? value.slice(2) : value);
  let ddd = digits(input.ddd);
  let local = digits(input.phone);
  if (local) {
    if (ddd) {
      // "84" + "84999991234" or "5584999991234": the number carries its DDD already.
      const full = withoutCountry(local);
      if (full.length >= 10 && full.startsWith(ddd)) local = full.slice(ddd.length);
    } else {
      const full = withoutCountry(local);
      if (full.length === 10 || full.length === 11) [ddd, local] = [full.slice(0, 2), full.slice(2)];
    }
  } else {
    const full = withoutCountry(digits(input.phoneNumber));
    if (!full) return null;
    [ddd, local] = [full.slice(0, 2), full.slice(2)];
  }
  if (!/^[1-9]\d$/.test(ddd) || !/^(9\d{8}|\d{8})$/.test(local)) return "invalid";
  return `(${ddd}) ${local.slice(0, -4)}-${local.slice(-4)}`;
}

/** SELL → comprar, RENT → alugar; otherwise what the listing is for, else comprar. */
export function interestOf(transactionType: string | undefined, purpose: "venda" | "aluguel" | undefined): LeadInterest {
  const kind = transactionType?.toUpperCase();
  if (kind === "SELL" || kind === "SALE") return "comprar";
  if (kind === "RENT") return "alugar";
  if (purpose === "aluguel") return "alugar";
  return "comprar";
}

/** At most `max` characters (code points: never half of an emoji), with "…" when cut. */
export function cut(text: string | undefined, max: number): string | null {
  if (!text) return null;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}
