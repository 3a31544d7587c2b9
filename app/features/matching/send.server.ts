import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { lead_matches_sent, leads, properties } from "~/db/schema";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { leadWhatsappLink, propertyPath } from "~/features/leads/contact-links";
import { composeMail } from "~/features/mail/compose.server";
import { enqueueMail } from "~/features/mail/outbox.server";
import { priceText } from "~/features/properties/labels";
import { isUuid } from "~/lib/ids";

/**
 * Sending a match to a lead (docs/decisions/023): by e-mail, one outbox row written in the same
 * transaction as the lead_matches_sent row; by WhatsApp, the page opens a wa.me link with the
 * message below and records the click here. The lead's timeline reads lead_matches_sent.
 */

export const MATCH_MAIL_KIND = "lead-match";

export const SEND_MESSAGES = {
  sentEmail: "Imóvel enviado por e-mail (na fila de envio).",
  sentWhatsapp: "Envio por WhatsApp registrado.",
  noEmail: "Este lead não tem e-mail cadastrado.",
  notAvailable: "Este imóvel não está disponível.",
  notFound: "Lead ou imóvel não encontrado.",
  failed: "Erro ao registrar o envio. Tente novamente.",
} as const;

type Listing = { id: string; title: string; price: number; purpose: "venda" | "aluguel"; neighborhood: string; codigo: string };

const firstName = (fullName: string) => fullName.trim().split(/\s+/)[0] ?? "";

/** The WhatsApp message: the listing's title, price and public link. */
export function matchWhatsappText(env: { publicUrl: string }, leadName: string, listing: Listing, brokerName: string): string {
  const link = `${env.publicUrl}${propertyPath(listing.id)}`;
  return `Olá, ${firstName(leadName)}! Aqui é ${brokerName}. Separei um imóvel que combina com o que você procura: ${listing.title} (${listing.neighborhood}), ${priceText(listing.price, listing.purpose)}. Veja: ${link}`;
}

export function matchWhatsappLink(env: { publicUrl: string }, lead: { full_name: string; phone: string }, listing: Listing, brokerName: string): string {
  return leadWhatsappLink(lead.phone, matchWhatsappText(env, lead.full_name, listing, brokerName));
}

export function matchMail(env: { publicUrl: string }, leadName: string, listing: Listing, brokerName: string) {
  return composeMail({
    subject: `Imóvel para você: ${listing.title}`,
    greeting: `Olá, ${firstName(leadName)}!`,
    paragraphs: [
      "Separei um imóvel que combina com o que você procura:",
      `${listing.title} — ${listing.neighborhood} — ${priceText(listing.price, listing.purpose)} (código ${listing.codigo}).`,
      "Se quiser visitar ou saber mais, é só responder a este e-mail.",
    ],
    action: { label: "Ver o imóvel", url: `${env.publicUrl}${propertyPath(listing.id)}` },
    footer: `Você recebeu este e-mail porque falou com ${brokerName} sobre imóveis.`,
  });
}

export type SendResult = { ok: true } | { ok: false; reason: "not-found" | "no-email" | "not-available" };

export async function sendMatch(
  db: Database,
  env: { publicUrl: string },
  actor: AuditActor,
  input: { leadId: string; propertyId: string; channel: "email" | "whatsapp"; brokerName: string; replyTo?: string | null },
): Promise<SendResult> {
  if (!isUuid(input.leadId) || !isUuid(input.propertyId)) return { ok: false, reason: "not-found" };
  return db.transaction(async (tx) => {
    const [lead] = await tx.select({ id: leads.id, full_name: leads.full_name, email: leads.email }).from(leads).where(eq(leads.id, input.leadId)).for("update");
    const [listing] = await tx
      .select({ id: properties.id, title: properties.title, price: properties.price, purpose: properties.purpose, neighborhood: properties.neighborhood, codigo: properties.codigo, status: properties.status })
      .from(properties)
      .where(and(eq(properties.id, input.propertyId)));
    if (!lead || !listing) return { ok: false, reason: "not-found" } as const;
    if (listing.status !== "disponivel") return { ok: false, reason: "not-available" } as const;
    let outboxId: string | null = null;
    if (input.channel === "email") {
      if (!lead.email) return { ok: false, reason: "no-email" } as const;
      const mail = matchMail(env, lead.full_name, listing, input.brokerName);
      outboxId = await enqueueMail(tx, { kind: MATCH_MAIL_KIND, to: lead.email, subject: mail.subject, text: mail.text, html: mail.html, replyTo: input.replyTo ?? null, leadId: lead.id });
    }
    await tx.insert(lead_matches_sent).values({
      lead_id: lead.id,
      property_id: listing.id,
      channel: input.channel,
      actor_id: actor?.id ?? null,
      actor_name: actor ? (actor.name ?? actor.email) : null,
      outbox_id: outboxId,
    });
    await recordAudit(tx, { actor, action: "lead.match_send", entity: "lead", entityId: lead.id, details: { propertyId: listing.id, channel: input.channel } });
    return { ok: true } as const;
  });
}
