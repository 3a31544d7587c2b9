import * as z from "zod/mini";
import { RENTAL_GUARANTEES } from "~/db/values";
import { COMMISSION_STATUSES, OFFER_PARTIES } from "~/db/values-deals";
import { choice, optionalText } from "~/lib/validation";
import { MAX_CENTS, parseCents, parsePercentHundredths } from "./money";

/**
 * The negotiation's forms (issue 24): proposal, offer, deal, commission. One schema per form,
 * checked in the browser and again in the action; every refusal is a Portuguese message.
 */

export const DEAL_MESSAGES = {
  amount: "Informe um valor válido (ex.: 540.000,00)",
  amountRange: "Valor fora do limite (até R$ 1 bilhão)",
  date: "Data inválida",
  validUntil: "Informe a validade da proposta",
  validPast: "A validade não pode ser anterior a hoje",
  closedOn: "Informe a data do fechamento",
  percent: "Percentual inválido: informe um número entre 0 e 100",
  conditions: "Condições muito longas (máximo 2000 caracteres)",
  note: "Observação muito longa (máximo 500 caracteres)",
  reason: "Motivo muito longo (máximo 500 caracteres)",
  party: "Escolha quem fez a oferta",
  guarantee: "Garantia inválida",
  codigo: "Informe o código do imóvel",
  splitName: "Nome do parceiro: de 2 a 120 caracteres",
  splitCreci: "CRECI do parceiro muito longo (máximo 30 caracteres)",
  splitPercent: "Percentual do parceiro inválido: entre 0,01 e 100",
  splitsTotal: "A soma dos parceiros passa de 100% da comissão",
  splitsMax: "No máximo 5 parceiros por negócio",
  commissionStatus: "Escolha a situação da comissão",
  proposalCreated: "Proposta registrada!",
  offerAdded: "Oferta registrada!",
  accepted: "Proposta aceita! Agora registre o fechamento.",
  rejected: "Proposta recusada.",
  dealClosed: "Negócio fechado! Imóvel e lead atualizados.",
  dealUndone: "Negócio desfeito. Imóvel voltou a disponível e o lead a em atendimento.",
  commissionSaved: "Comissão salva!",
  notFound: "Proposta não encontrada. Ela pode ter sido excluída.",
  dealNotFound: "Negócio não encontrado.",
  propertyNotFound: "Imóvel não encontrado: confira o código",
  notOpen: "Esta proposta não está mais em negociação",
  notAccepted: "Só uma proposta aceita vira negócio",
  alreadyClosed: "Esta proposta já virou negócio",
  propertyTaken: "Este imóvel já tem um negócio fechado",
  propertyUnavailable: "Este imóvel não está disponível",
  commissionForbidden: "Somente administradores podem ver e alterar comissões e divisões",
  failed: "Erro ao salvar. Tente novamente.",
  unknownIntent: "Ação desconhecida",
} as const;

export const MAX_SPLITS = 5;

const blank = (value: string | null | undefined) => value === undefined || value === null || value.trim() === "";

const amount = (required: boolean) =>
  z.pipe(
    z.optional(z.nullable(z.string({ error: DEAL_MESSAGES.amount }))),
    z.transform((value, context) => {
      if (blank(value)) {
        if (required) context.issues.push({ code: "custom", message: DEAL_MESSAGES.amount, input: value });
        return required ? z.NEVER : null;
      }
      const cents = parseCents(value!.trim());
      if (cents === null || cents <= 0) {
        context.issues.push({ code: "custom", message: DEAL_MESSAGES.amount, input: value });
        return z.NEVER;
      }
      if (cents > MAX_CENTS) {
        context.issues.push({ code: "custom", message: DEAL_MESSAGES.amountRange, input: value });
        return z.NEVER;
      }
      return cents;
    }),
  );
const requiredAmount = () => amount(true) as unknown as z.ZodMiniType<number, string>;
const optionalAmount = () => amount(false) as unknown as z.ZodMiniType<number | null, string | null | undefined>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const isRealDay = (value: string) => {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && value >= "2000-01-01" && value <= "2100-12-31";
};

const day = (required: string | null) =>
  z.pipe(
    z.optional(z.nullable(z.string({ error: DEAL_MESSAGES.date }))),
    z.transform((value, context) => {
      const trimmed = value?.trim() ?? "";
      if (!trimmed) {
        if (required) {
          context.issues.push({ code: "custom", message: required, input: value });
          return z.NEVER;
        }
        return null;
      }
      if (!isRealDay(trimmed)) {
        context.issues.push({ code: "custom", message: DEAL_MESSAGES.date, input: value });
        return z.NEVER;
      }
      return trimmed;
    }),
  );
const requiredDay = (message: string) => day(message) as unknown as z.ZodMiniType<string, string>;
const optionalDay = () => day(null) as unknown as z.ZodMiniType<string | null, string | null | undefined>;

/** Hundredths of a percent (600 = 6 %), or null when left empty (the default applies). */
const optionalPercent = () =>
  z.pipe(
    z.optional(z.nullable(z.string({ error: DEAL_MESSAGES.percent }))),
    z.transform((value, context) => {
      if (blank(value)) return null;
      const hundredths = parsePercentHundredths(value!);
      if (hundredths === null) {
        context.issues.push({ code: "custom", message: DEAL_MESSAGES.percent, input: value });
        return z.NEVER;
      }
      return hundredths;
    }),
  );

const id = () => z.string({ error: DEAL_MESSAGES.notFound }).check(z.trim(), z.maxLength(64, { error: DEAL_MESSAGES.notFound }));

export const proposalSchema = z.object(
  {
    property_codigo: z.string({ error: DEAL_MESSAGES.codigo }).check(z.trim(), z.minLength(1, { error: DEAL_MESSAGES.codigo }), z.maxLength(50, { error: DEAL_MESSAGES.propertyNotFound })),
    amount: requiredAmount(),
    cash: optionalAmount(),
    financing: optionalAmount(),
    fgts: optionalAmount(),
    exchange: optionalAmount(),
    guarantee: z.pipe(
      z.optional(z.nullable(z.string({ error: DEAL_MESSAGES.guarantee }))),
      z.transform((value, context) => {
        if (blank(value)) return null;
        if (!(RENTAL_GUARANTEES as readonly string[]).includes(value!)) {
          context.issues.push({ code: "custom", message: DEAL_MESSAGES.guarantee, input: value });
          return z.NEVER;
        }
        return value as (typeof RENTAL_GUARANTEES)[number];
      }),
    ),
    starts_on: optionalDay(),
    conditions: optionalText(2000, DEAL_MESSAGES.conditions, { multiline: true }),
    valid_until: requiredDay(DEAL_MESSAGES.validUntil),
  },
  { error: "Dados inválidos" },
);
export type ProposalInput = z.infer<typeof proposalSchema>;

export const offerSchema = z.object(
  {
    proposal_id: id(),
    party: choice(OFFER_PARTIES, DEAL_MESSAGES.party),
    amount: requiredAmount(),
    note: optionalText(500, DEAL_MESSAGES.note, { multiline: true }),
  },
  { error: "Dados inválidos" },
);
export type OfferInput = z.infer<typeof offerSchema>;

export const decisionSchema = z.object({ proposal_id: id() }, { error: "Dados inválidos" });

export type SplitInput = { name: string; creci: string | null; percentHundredths: number };

/**
 * The partners' rows of a form (`split.0.name`, `split.0.creci`, `split.0.percent`, …); a row
 * left wholly empty is skipped. A message when a row or the total is wrong.
 */
export function parseSplits(body: Record<string, unknown>): { ok: true; splits: SplitInput[] } | { ok: false; message: string } {
  const rows = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(body)) {
    const match = /^split\.(\d{1,2})\.(name|creci|percent)$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    rows.set(index, { ...(rows.get(index) ?? {}), [match[2]]: value });
  }
  const splits: SplitInput[] = [];
  for (const [, row] of [...rows.entries()].sort(([a], [b]) => a - b)) {
    const text = (field: string) => (typeof row[field] === "string" ? (row[field] as string).trim() : "");
    const [name, creci, percent] = [text("name"), text("creci"), text("percent")];
    if (!name && !creci && !percent) continue;
    if (name.length < 2 || name.length > 120 || /[\u0000-\u001f\u007f]/.test(name)) return { ok: false, message: DEAL_MESSAGES.splitName };
    if (creci.length > 30 || /[\u0000-\u001f\u007f]/.test(creci)) return { ok: false, message: DEAL_MESSAGES.splitCreci };
    const hundredths = parsePercentHundredths(percent);
    if (hundredths === null || hundredths <= 0) return { ok: false, message: DEAL_MESSAGES.splitPercent };
    splits.push({ name, creci: creci || null, percentHundredths: hundredths });
  }
  if (splits.length > MAX_SPLITS) return { ok: false, message: DEAL_MESSAGES.splitsMax };
  if (splits.reduce((sum, split) => sum + split.percentHundredths, 0) > 10_000) return { ok: false, message: DEAL_MESSAGES.splitsTotal };
  return { ok: true, splits };
}

export const dealSchema = z.object(
  {
    proposal_id: id(),
    final_value: requiredAmount(),
    closed_on: requiredDay(DEAL_MESSAGES.closedOn),
    commission_percent: optionalPercent(),
    commission_due_on: optionalDay(),
  },
  { error: "Dados inválidos" },
);
export type DealInput = z.infer<typeof dealSchema>;

export const undoSchema = z.object(
  { deal_id: id(), reason: optionalText(500, DEAL_MESSAGES.reason, { multiline: true }) },
  { error: "Dados inválidos" },
);

export const commissionSchema = z.object(
  {
    deal_id: id(),
    commission_percent: optionalPercent(),
    commission_status: choice(COMMISSION_STATUSES, DEAL_MESSAGES.commissionStatus),
    commission_due_on: optionalDay(),
    commission_paid_on: optionalDay(),
  },
  { error: "Dados inválidos" },
);
export type CommissionInput = z.infer<typeof commissionSchema>;
