import { z } from "zod";
import type { LeadInterest } from "~/db/values";
import { leadPath, leadTelLink, leadWhatsappLink, propertyPath } from "~/features/leads/contact-links";
import { INTEREST_LABELS } from "~/features/leads/labels";
import { brokerProfileNow } from "~/features/settings/settings.server";
import { enqueueNewLeadPush } from "~/features/push/queue.server";
import { escapeHtml } from "./compose.server";
import { type DbOrTx, enqueueMail } from "./outbox.server";

/**
 * The new-lead alert (issue 11): one e-mail per notification address, enqueued in the
 * transaction that stores the lead, so a lead that was not stored alerts nobody and a stored one
 * always does (the outbox survives a restart). Everything the broker needs to answer from the
 * phone: tap-to-call, WhatsApp, e-mail, and a link to the lead in the CRM.
 */

export const LEAD_ALERT_KIND = "lead-alert";

export type LeadAlertInput = {
  leadId: string;
  fullName: string;
  phone: string;
  email: string | null;
  interest: LeadInterest;
  message: string | null;
  /** contact form, visit booking, or a portal's webhook (issue 13) */
  source: "contato" | "visita" | "portal";
  property: { id: string; codigo: string; title: string } | null;
  /** A portal's lead: which portal sent it (VivaReal, ZAP, …) and the temperature it gave. */
  portal?: { name: string; temperature: string | null };
  /** A visit booking's preferred days and periods (issue 25), as labels. */
  preferences?: string[];
};

const SOURCE_LABELS = { contato: "formulário de contato", visita: "agendamento de visita" } as const;

function alertIntro(input: LeadAlertInput): string {
  if (input.source === "portal") {
    // One line: a portal's name cannot break the text.
    const portal = (input.portal?.name ?? "").replace(/\s+/g, " ").trim();
    return portal ? `Chegou um novo lead do portal ${portal}.` : "Chegou um novo lead de um portal de anúncios.";
  }
  return `Chegou um novo lead pelo ${SOURCE_LABELS[input.source]} do site ${brokerProfileNow().siteName}.`;
}

type Line = { label: string; value: string; href?: string; extra?: { label: string; href: string }[] };

/** Subject, text and HTML of one alert; links from PUBLIC_URL, never from a request. */
export function leadAlertMail(env: { publicUrl: string }, input: LeadAlertInput) {
  // A subject is one header line: a name cannot start another header.
  const name = input.fullName.replace(/[\r\n]+/g, " ").trim();
  const subject = `Novo lead: ${name}`;
  const crmUrl = `${env.publicUrl}${leadPath(input.leadId)}`;
  const propertyUrl = input.property ? `${env.publicUrl}${propertyPath(input.property.id)}` : null;
  const whatsapp = leadWhatsappLink(input.phone);

  const lines: Line[] = [
    { label: "Nome", value: name },
    {
      label: "Telefone",
      value: input.phone,
      href: leadTelLink(input.phone),
      extra: [{ label: "WhatsApp", href: whatsapp }],
    },
  ];
  if (input.email?.trim()) {
    // Shown on one line as given; a link only to one plain address (a portal may send anything).
    const plain = leadAlertReplyTo(input.email);
    lines.push({ label: "E-mail", value: input.email.replace(/\s+/g, " ").trim(), href: plain ? `mailto:${plain}` : undefined });
  }
  lines.push({ label: "Interesse", value: INTEREST_LABELS[input.interest] });
  if (input.preferences?.length) lines.push({ label: "Dias preferidos", value: input.preferences.join("; ") });
  if (input.portal?.temperature) lines.push({ label: "Temperatura", value: input.portal.temperature });
  if (input.property && propertyUrl) {
    lines.push({ label: "Imóvel", value: `${input.property.codigo} — ${input.property.title}`, href: propertyUrl });
  }
  const intro = alertIntro(input);

  const text = [
    intro,
    lines
      .map((line) => {
        const parts = [`${line.label}: ${line.value}`];
        if (line.href && line.href !== line.value) parts.push(`  ${line.href}`);
        for (const extra of line.extra ?? []) parts.push(`  ${extra.label}: ${extra.href}`);
        return parts.join("\n");
      })
      .join("\n"),
    input.message ? `Mensagem:\n${input.message}` : "Sem mensagem.",
    `Abrir o lead no CRM:\n${crmUrl}`,
    "--\nAviso automático do site: responda ao lead pelo telefone, WhatsApp ou e-mail acima.",
  ].join("\n\n");

  const link = (href: string, label: string) => `<a href="${escapeHtml(href)}" style="color:#1d4ed8;">${escapeHtml(label)}</a>`;
  const rows = lines
    .map((line) => {
      const value = line.href ? link(line.href, line.value) : escapeHtml(line.value);
      const extras = (line.extra ?? []).map((extra) => ` · ${link(extra.href, extra.label)}`).join("");
      return `<li style="margin:0 0 8px;"><strong>${escapeHtml(line.label)}:</strong> ${value}${extras}</li>`;
    })
    .join("\n");
  const message = input.message
    ? `<p style="margin:0 0 6px;font-size:16px;"><strong>Mensagem:</strong></p><p style="margin:0 0 16px;font-size:16px;line-height:1.5;white-space:pre-wrap;background:#f9fafb;border-left:3px solid #d1d5db;padding:8px 12px;">${escapeHtml(input.message)}</p>`
    : `<p style="margin:0 0 16px;font-size:16px;">Sem mensagem.</p>`;
  const html = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<div style="max-width:560px;margin:0 auto;padding:24px 16px;font-family:Arial,Helvetica,sans-serif;color:#111827;">
<div style="background:#ffffff;border-radius:8px;padding:24px;">
<p style="margin:0 0 16px;font-size:16px;line-height:1.5;">${escapeHtml(intro)}</p>
<ul style="margin:0 0 16px;padding-left:20px;font-size:16px;line-height:1.5;">
${rows}
</ul>
${message}
<p style="margin:24px 0;"><a href="${escapeHtml(crmUrl)}" style="display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:6px;font-size:16px;font-weight:bold;">Abrir o lead no CRM</a></p>
<p style="margin:0 0 16px;font-size:14px;line-height:1.5;">Se o botão não funcionar, copie e cole este endereço no navegador:<br><a href="${escapeHtml(crmUrl)}" style="color:#1d4ed8;word-break:break-all;">${escapeHtml(crmUrl)}</a></p>
<p style="margin:32px 0 0;padding-top:16px;border-top:1px solid #e5e7eb;font-size:13px;line-height:1.5;color:#4b5563;">Aviso automático do site: responda ao lead pelo telefone, WhatsApp ou e-mail acima.</p>
</div>
</div>
</body>
</html>
`;
  return { subject, text: `${text}\n`, html };
}

/** One plain address: no display name, no list, no quotes, no space or line break. */
const PLAIN_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/**
 * The alert's Reply-To: the lead's e-mail, so that answering the alert writes to the lead. It
 * comes from a visitor or a portal, so it must be one plain address (and a valid one for zod):
 * anything else — a second address, a display name, a line break that would start a header of
 * its own — leaves the alert without Reply-To.
 */
export function leadAlertReplyTo(email: string | null | undefined): string | null {
  const address = email?.trim() ?? "";
  if (address.length === 0 || address.length > 254) return null;
  return PLAIN_ADDRESS.test(address) && z.email().safeParse(address).success ? address : null;
}

/**
 * Enqueues the alert once per address (the same address twice, in any case, gets one), and the
 * staff's push alerts. Call it inside the transaction that inserts the lead; wake the mail and
 * push workers after the commit.
 */
export async function enqueueLeadAlert(tx: DbOrTx, env: { publicUrl: string }, addresses: readonly string[], input: LeadAlertInput): Promise<number> {
  const unique = new Map<string, string>();
  for (const address of addresses) {
    const trimmed = address.trim();
    if (trimmed && !unique.has(trimmed.toLowerCase())) unique.set(trimmed.toLowerCase(), trimmed);
  }
  const mail = leadAlertMail(env, input);
  for (const to of unique.values()) {
    await enqueueMail(tx, { kind: LEAD_ALERT_KIND, to, leadId: input.leadId, replyTo: leadAlertReplyTo(input.email), ...mail });
  }
  // The staff's phones hear of it in the same transaction (decision 030): wake the push worker too.
  await enqueueNewLeadPush(tx, { id: input.leadId, fullName: input.fullName, source: input.source });
  return unique.size;
}
