import type { AuditActor } from "~/features/audit/audit.server";
import type { Database } from "~/db/client.server";
import type { MediaStorage } from "~/features/media/storage.server";
import { WATERMARK_MESSAGES } from "~/features/media/watermark";
import { DEAL_SETTINGS_MESSAGES } from "~/features/deals/deal-settings";
import { saveDealSettings } from "~/features/deals/deal-settings.server";
import { saveWatermark } from "~/features/media/watermark.server";
import { regenerateFeedToken, setWebhookSecret } from "~/features/portals/portal-settings.server";
import { EDITABLE_PROFILE_FIELDS, MAX_TEMPLATES, type SettingsAnswer, type SettingsIntent } from "./keys";
import { LOST_REASONS_MESSAGES, MAX_LOST_REASONS } from "./lost-reasons";
import { saveLostReasons } from "./lost-reasons.server";
import { SETTINGS_MESSAGES, splitEmails } from "./schema";
import { type SaveResult, saveBrokerProfile, saveNotificationEmails, saveWhatsappTemplates } from "./settings.server";

/**
 * The settings page's posts, whichever way they come: the page's forms (one per section, with an
 * `intent`), a browser without JavaScript, or a hand-made request. Anything unexpected is a 400
 * with a Portuguese message; nothing is saved unless the whole section is valid.
 */

const SUCCESS: Record<SettingsIntent, string> = {
  profile: "Perfil salvo. O site já mostra os novos dados.",
  notifications: "E-mails dos avisos salvos.",
  templates: "Modelos de mensagem salvos.",
  "portal-feed-token": "Novo endereço do feed gerado. Informe-o aos portais: o anterior deixou de funcionar.",
  "portal-secret-generate": "Nova senha gerada. Informe-a aos portais: a anterior deixou de funcionar.",
  "portal-secret-set": "Senha salva. Informe-a aos portais: a anterior deixou de funcionar.",
  watermark: WATERMARK_MESSAGES.saved,
  deals: DEAL_SETTINGS_MESSAGES.saved,
  "lost-reasons": LOST_REASONS_MESSAGES.saved,
};

/** `reasons.3` style fields (the form), or a `reasons` list (JSON), in their order; null when too many. */
function reasonsFrom(body: Record<string, unknown>): unknown[] | null {
  if (Array.isArray(body.reasons)) return body.reasons.length > MAX_LOST_REASONS * 2 ? null : body.reasons;
  const byIndex = new Map<number, unknown>();
  for (const [key, value] of Object.entries(body)) {
    const match = /^reasons\.(\d{1,3})$/.exec(key);
    if (match) byIndex.set(Number(match[1]), value);
  }
  if (byIndex.size > MAX_LOST_REASONS * 2) return null;
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, value]) => value);
}

/** `templates.3.body` style fields (the form), or a `templates` list (JSON), in their order. */
function templatesFrom(body: Record<string, unknown>): { id?: string; name?: unknown; body?: unknown }[] | null {
  if (Array.isArray(body.templates)) {
    return body.templates.map((item) => {
      const template = (item && typeof item === "object" ? item : {}) as Record<string, unknown>;
      return { id: typeof template.id === "string" ? template.id : undefined, name: template.name, body: template.body };
    });
  }
  const byIndex = new Map<number, { id?: string; name?: unknown; body?: unknown }>();
  for (const [key, value] of Object.entries(body)) {
    const match = /^templates\.(\d{1,3})\.(id|name|body)$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const template = byIndex.get(index) ?? {};
    if (match[2] === "id") template.id = typeof value === "string" ? value : "\u0000";
    else template[match[2] as "name" | "body"] = value;
    byIndex.set(index, template);
  }
  // More than the most we keep is refused by the schema; past that, do not even build the list.
  if (byIndex.size > MAX_TEMPLATES * 2) return null;
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, template]) => template);
}

function answer(intent: SettingsIntent, result: SaveResult): { status: number; body: SettingsAnswer } {
  if (!result.ok) return { status: 400, body: { ok: false, intent, message: result.message, errors: result.errors } };
  const message = result.changed.length === 0 ? "Nada mudou: nenhum campo foi alterado." : SUCCESS[intent];
  return { status: 200, body: { ok: true, intent, message } };
}

export async function handleSettingsPost(
  deps: { db: Database; storage: MediaStorage },
  actor: AuditActor,
  body: Record<string, unknown>,
): Promise<{ status: number; body: SettingsAnswer }> {
  const intent = body.intent;
  if (intent === "profile") {
    const input = Object.fromEntries(EDITABLE_PROFILE_FIELDS.map((field) => [field, body[field]]));
    return answer(intent, await saveBrokerProfile(deps, actor, input));
  }
  if (intent === "notifications") {
    const raw = body.emails;
    const addresses = Array.isArray(raw) ? raw.filter((item): item is string => typeof item === "string") : typeof raw === "string" ? splitEmails(raw) : [];
    return answer(intent, await saveNotificationEmails(deps.db, actor, addresses));
  }
  if (intent === "templates") {
    const templates = templatesFrom(body);
    if (!templates) {
      return { status: 400, body: { ok: false, intent, message: SETTINGS_MESSAGES.templatesMax, errors: { templates: SETTINGS_MESSAGES.templatesMax } } };
    }
    return answer(intent, await saveWhatsappTemplates(deps.db, actor, templates));
  }
  if (intent === "lost-reasons") {
    const reasons = reasonsFrom(body);
    if (!reasons) return { status: 400, body: { ok: false, intent, message: LOST_REASONS_MESSAGES.max, errors: { reasons: LOST_REASONS_MESSAGES.max } } };
    return answer(intent, await saveLostReasons(deps.db, actor, reasons));
  }
  if (intent === "watermark") {
    const saved = await saveWatermark(deps, actor, { enabled: body.enabled, text: body.text });
    return saved.ok ? { status: 200, body: { ok: true, intent, message: saved.message } } : { status: 400, body: { ok: false, intent, message: saved.message, errors: { text: saved.message } } };
  }
  if (intent === "deals") {
    const saved = await saveDealSettings(deps.db, actor, {
      salePercent: body.salePercent,
      rentFirstRentPercent: body.rentFirstRentPercent,
      corretorSeesCommissions: body.corretorSeesCommissions,
    });
    return saved.ok
      ? { status: 200, body: { ok: true, intent, message: saved.message } }
      : { status: 400, body: { ok: false, intent, message: saved.message, errors: { [saved.field]: saved.message } } };
  }
  if (intent === "portal-feed-token") return answer(intent, await regenerateFeedToken(deps.db, actor));
  if (intent === "portal-secret-generate") return answer(intent, await setWebhookSecret(deps.db, actor));
  if (intent === "portal-secret-set") return answer(intent, await setWebhookSecret(deps.db, actor, body.secret ?? ""));
  return { status: 400, body: { ok: false, message: SETTINGS_MESSAGES.malformed } };
}
