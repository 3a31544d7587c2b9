import { data } from "react-router";
import type { Database } from "~/db/client.server";
import type { Role } from "~/db/values";
import type { AuditActor } from "~/features/audit/audit.server";
import { brokerDay } from "~/lib/format";
import { errorFields, logger } from "~/lib/logger.server";
import { asString } from "~/lib/request-body.server";
import { canSeeCommissions, loadDealSettings } from "./deal-settings.server";
import { closeDeal, type DealResult, undoDeal, updateCommission } from "./deals.server";
import { addOffer, createProposal, decideProposal, type ProposalResult } from "./proposals.server";
import { commissionSchema, DEAL_MESSAGES, dealSchema, decisionSchema, offerSchema, parseSplits, proposalSchema, undoSchema } from "./schema";

/**
 * The lead page's negotiation intents (issue 24). Staff (admin and corretor) manage proposals
 * and deals; the commission's %, splits and payment are for whoever may see commissions
 * (canSeeCommissions): anyone else sending them gets 403. Null when the intent is not ours.
 */

export const NEGOTIATION_INTENTS = ["proposal_create", "proposal_offer", "proposal_accept", "proposal_reject", "deal_create", "deal_undo", "deal_commission"] as const;

type Staff = { id: string; email: string; name?: string; role: Role };

const PROPOSAL_REFUSALS: Record<Exclude<ProposalResult, { ok: true }>["reason"], { status: number; message: string }> = {
  "lead-not-found": { status: 404, message: "Lead não encontrado. Ele pode ter sido excluído." },
  "property-not-found": { status: 400, message: DEAL_MESSAGES.propertyNotFound },
  "property-unavailable": { status: 409, message: DEAL_MESSAGES.propertyUnavailable },
  "valid-past": { status: 400, message: DEAL_MESSAGES.validPast },
  "not-found": { status: 404, message: DEAL_MESSAGES.notFound },
  "not-open": { status: 409, message: DEAL_MESSAGES.notOpen },
};
const DEAL_REFUSALS: Record<Exclude<DealResult, { ok: true }>["reason"], { status: number; message: string }> = {
  "not-found": { status: 404, message: DEAL_MESSAGES.dealNotFound },
  "not-accepted": { status: 409, message: DEAL_MESSAGES.notAccepted },
  "already-closed": { status: 409, message: DEAL_MESSAGES.alreadyClosed },
  "property-taken": { status: 409, message: DEAL_MESSAGES.propertyTaken },
};

const hasCommissionFields = (body: Record<string, unknown>) =>
  Object.entries(body).some(([key, value]) => (key === "commission_percent" || key.startsWith("split.")) && typeof value === "string" && value.trim() !== "");

export async function negotiationAction(db: Database, staff: Staff, leadId: string, body: Record<string, unknown>) {
  const intent = asString(body.intent);
  if (!intent || !(NEGOTIATION_INTENTS as readonly string[]).includes(intent)) return null;
  const actor: AuditActor = { id: staff.id, email: staff.email, name: staff.name };
  const invalid = (message: string) => data({ ok: false, message }, { status: 400 });
  const answer = (result: ProposalResult | DealResult, message: string) => {
    if (result.ok) return { ok: true, message };
    const refusal = (PROPOSAL_REFUSALS as Record<string, { status: number; message: string }>)[result.reason] ?? DEAL_REFUSALS[result.reason as keyof typeof DEAL_REFUSALS];
    return data({ ok: false, message: refusal.message }, { status: refusal.status });
  };
  const today = brokerDay(new Date());
  try {
    if (intent === "proposal_create") {
      const parsed = proposalSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Dados inválidos");
      return answer(await createProposal(db, actor, leadId, parsed.data, today), DEAL_MESSAGES.proposalCreated);
    }
    if (intent === "proposal_offer") {
      const parsed = offerSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Dados inválidos");
      return answer(await addOffer(db, actor, leadId, parsed.data), DEAL_MESSAGES.offerAdded);
    }
    if (intent === "proposal_accept" || intent === "proposal_reject") {
      const parsed = decisionSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Dados inválidos");
      const accept = intent === "proposal_accept";
      return answer(await decideProposal(db, actor, leadId, parsed.data.proposal_id, accept ? "aceita" : "recusada"), accept ? DEAL_MESSAGES.accepted : DEAL_MESSAGES.rejected);
    }
    if (intent === "deal_undo") {
      const parsed = undoSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Dados inválidos");
      return answer(await undoDeal(db, actor, leadId, parsed.data.deal_id, parsed.data.reason ?? null), DEAL_MESSAGES.dealUndone);
    }
    const settings = await loadDealSettings(db);
    const mayCommission = canSeeCommissions(staff.role, settings);
    if (intent === "deal_create") {
      if (!mayCommission && hasCommissionFields(body)) return data({ ok: false, message: DEAL_MESSAGES.commissionForbidden }, { status: 403 });
      const parsed = dealSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Dados inválidos");
      const splits = parseSplits(body);
      if (!splits.ok) return invalid(splits.message);
      return answer(await closeDeal(db, actor, leadId, parsed.data, { settings, splits: splits.splits }), DEAL_MESSAGES.dealClosed);
    }
    // deal_commission
    if (!mayCommission) return data({ ok: false, message: DEAL_MESSAGES.commissionForbidden }, { status: 403 });
    const parsed = commissionSchema.safeParse(body);
    if (!parsed.success) return invalid(parsed.error.issues[0]?.message ?? "Dados inválidos");
    const splits = parseSplits(body);
    if (!splits.ok) return invalid(splits.message);
    return answer(await updateCommission(db, actor, leadId, parsed.data, splits.splits, today), DEAL_MESSAGES.commissionSaved);
  } catch (error) {
    logger("crm").error({ ...errorFields(error), intent }, "negotiation write failed");
    return data({ ok: false, message: DEAL_MESSAGES.failed }, { status: 500 });
  }
}
