import { data } from "react-router";
import { inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { leads as leadsTable } from "~/db/schema";
import type { AuditActor } from "~/features/audit/audit.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { errorFields, logger } from "~/lib/logger.server";
import { asString } from "~/lib/request-body.server";
import { leadsForProperty, type PropertyLead } from "./match.server";
import { PROFILE_MESSAGES } from "./profile-schema";
import { matchWhatsappLink, SEND_MESSAGES, sendMatch } from "./send.server";

/** /crm/imoveis/:id/leads: a listing's leads (match.server.ts) with the send links, and its send action. */

export type PropertyLeadView = PropertyLead & { whatsappUrl: string | null };

export async function loadPropertyLeads(db: Database, env: { publicUrl: string }, propertyId: string) {
  const found = await leadsForProperty(db, propertyId);
  if (!found) return null;
  const broker = await loadBrokerProfile(db);
  const ids = found.leads.map((lead) => lead.leadId);
  const phones = ids.length ? await db.select({ id: leadsTable.id, phone: leadsTable.phone }).from(leadsTable).where(inArray(leadsTable.id, ids)) : [];
  const phoneOf = new Map(phones.map((row) => [row.id, row.phone]));
  const { listing } = found;
  const full = await db.query.properties.findFirst({ where: (p, { eq }) => eq(p.id, listing.id), columns: { id: true, title: true, price: true, purpose: true, neighborhood: true, codigo: true } });
  return {
    listing,
    leads: found.leads.map((lead): PropertyLeadView => {
      const phone = phoneOf.get(lead.leadId);
      return { ...lead, whatsappUrl: phone && full && listing.status === "disponivel" ? matchWhatsappLink(env, { full_name: lead.full_name, phone }, full, broker.name) : null };
    }),
  };
}

export async function propertyLeadsAction(db: Database, env: { publicUrl: string }, actor: AuditActor, propertyId: string, body: Record<string, unknown>) {
  if (asString(body.intent) !== "match_send") return data({ ok: false, message: "Ação desconhecida" }, { status: 400 });
  const channel = asString(body.channel);
  if (channel !== "email" && channel !== "whatsapp") return data({ ok: false, message: "Escolha como enviar: e-mail ou WhatsApp" }, { status: 400 });
  try {
    const broker = await loadBrokerProfile(db);
    const result = await sendMatch(db, env, actor, { leadId: asString(body.lead_id) ?? "", propertyId, channel, brokerName: broker.name, replyTo: broker.email || null });
    if (result.ok) return { ok: true, message: channel === "email" ? SEND_MESSAGES.sentEmail : SEND_MESSAGES.sentWhatsapp };
    if (result.reason === "no-email") return data({ ok: false, message: SEND_MESSAGES.noEmail }, { status: 400 });
    if (result.reason === "not-available") return data({ ok: false, message: SEND_MESSAGES.notAvailable }, { status: 409 });
    return data({ ok: false, message: SEND_MESSAGES.notFound }, { status: 404 });
  } catch (error) {
    logger("crm").error({ ...errorFields(error) }, "match send failed");
    return data({ ok: false, message: PROFILE_MESSAGES.saveFailed }, { status: 500 });
  }
}
