import { data } from "react-router";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { properties } from "~/db/schema";
import type { AuditActor } from "~/features/audit/audit.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { errorFields, logger } from "~/lib/logger.server";
import { asString } from "~/lib/request-body.server";
import { loadSentMatches, matchesForProfile, type ProfileMatch, type SentMatch } from "./match.server";
import { PROFILE_MESSAGES, profileSchema } from "./profile-schema";
import { deleteLeadProfile, type LeadProfile, loadLeadProfiles, saveLeadProfile, suggestedProfile } from "./profiles.server";
import { type MatchProfile, profileSummary } from "./reasons";
import { matchWhatsappLink, SEND_MESSAGES, sendMatch } from "./send.server";

/**
 * The lead page's 'Perfil de busca' section: the lead's profiles with their matching listings
 * (reasons, WhatsApp link, whether already sent), what was sent, and a suggested profile when
 * the lead came from a property page. Plus the section's action intents.
 */

export type MatchView = ProfileMatch & { whatsappUrl: string | null; sentAt: string | null };
export type ProfileView = { profile: LeadProfile; summary: string; matches: MatchView[] };
export type LeadMatching = {
  profiles: ProfileView[];
  sent: SentMatch[];
  suggestion: (MatchProfile & { summary: string }) | null;
  canEmail: boolean;
};

export const MATCHING_INTENTS = ["profile_save", "profile_delete", "match_send"] as const;

export async function loadLeadMatching(
  db: Database,
  env: { publicUrl: string },
  lead: { id: string; full_name: string; phone: string; email: string | null; property_id: string | null },
): Promise<LeadMatching> {
  const [profiles, sent, broker, origin] = await Promise.all([
    loadLeadProfiles(db, lead.id),
    loadSentMatches(db, lead.id),
    loadBrokerProfile(db),
    lead.property_id
      ? db
          .select({ purpose: properties.purpose, type: properties.type, neighborhood: properties.neighborhood, price: properties.price, bedrooms: properties.bedrooms })
          .from(properties)
          .where(eq(properties.id, lead.property_id))
          .then((rows) => rows[0] ?? null)
      : Promise.resolve(null),
  ]);
  const lastSent = new Map<string, string>();
  for (const item of sent) if (!lastSent.has(item.propertyId)) lastSent.set(item.propertyId, item.at);
  const views = await Promise.all(
    profiles.map(async (profile) => {
      const matches = await matchesForProfile(db, profile);
      return {
        profile,
        summary: profileSummary(profile),
        matches: matches.map((match) => ({
          ...match,
          whatsappUrl: lead.phone ? matchWhatsappLink(env, lead, match, broker.name) : null,
          sentAt: lastSent.get(match.id) ?? null,
        })),
      };
    }),
  );
  const suggestion = profiles.length === 0 ? suggestedProfile(origin) : null;
  return { profiles: views, sent, suggestion: suggestion ? { ...suggestion, summary: profileSummary(suggestion) } : null, canEmail: Boolean(lead.email) };
}

/** Handles the section's intents; null when the intent is not one of them. */
export async function matchingAction(
  db: Database,
  env: { publicUrl: string },
  actor: AuditActor,
  leadId: string,
  body: Record<string, unknown>,
) {
  const intent = asString(body.intent);
  if (!intent || !(MATCHING_INTENTS as readonly string[]).includes(intent)) return null;
  const failed = (error: unknown) => {
    logger("crm").error({ ...errorFields(error) }, "lead matching write failed");
    return data({ ok: false, message: PROFILE_MESSAGES.saveFailed }, { status: 500 });
  };
  const profileId = asString(body.profile_id)?.trim() || null;
  try {
    if (intent === "profile_save") {
      const parsed = profileSchema.safeParse(body);
      if (!parsed.success) return data({ ok: false, message: parsed.error.issues[0]?.message ?? "Dados inválidos" }, { status: 400 });
      const result = await saveLeadProfile(db, actor, leadId, profileId, parsed.data);
      if (result.ok) return { ok: true, message: PROFILE_MESSAGES.saved };
      if (result.reason === "too-many") return data({ ok: false, message: PROFILE_MESSAGES.tooMany }, { status: 400 });
      return data({ ok: false, message: result.reason === "lead-not-found" ? SEND_MESSAGES.notFound : PROFILE_MESSAGES.notFound }, { status: 404 });
    }
    if (intent === "profile_delete") {
      if (!profileId) return data({ ok: false, message: PROFILE_MESSAGES.notFound }, { status: 400 });
      return (await deleteLeadProfile(db, actor, leadId, profileId))
        ? { ok: true, message: PROFILE_MESSAGES.deleted }
        : data({ ok: false, message: PROFILE_MESSAGES.notFound }, { status: 404 });
    }
    const channel = asString(body.channel);
    const propertyId = asString(body.property_id) ?? "";
    if (channel !== "email" && channel !== "whatsapp") return data({ ok: false, message: "Escolha como enviar: e-mail ou WhatsApp" }, { status: 400 });
    const broker = await loadBrokerProfile(db);
    const result = await sendMatch(db, env, actor, { leadId, propertyId, channel, brokerName: broker.name, replyTo: broker.email || null });
    if (result.ok) return { ok: true, message: channel === "email" ? SEND_MESSAGES.sentEmail : SEND_MESSAGES.sentWhatsapp };
    if (result.reason === "no-email") return data({ ok: false, message: SEND_MESSAGES.noEmail }, { status: 400 });
    if (result.reason === "not-available") return data({ ok: false, message: SEND_MESSAGES.notAvailable }, { status: 409 });
    return data({ ok: false, message: SEND_MESSAGES.notFound }, { status: 404 });
  } catch (error) {
    return failed(error);
  }
}
