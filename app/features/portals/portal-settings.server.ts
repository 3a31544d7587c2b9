import crypto from "node:crypto";
import type { Database } from "~/db/client.server";
import { settings } from "~/db/schema";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { SETTING_KEYS } from "~/features/settings/keys";
import { SETTINGS_MESSAGES, webhookSecretSchema } from "~/features/settings/schema";
import { dropSettingsCache, type SaveResult } from "~/features/settings/settings.server";
import { loadPortalKeys } from "./portal-keys.server";
import { PORTAL_WEBHOOK_USER } from "./portal-leads.server";

/**
 * The 'Portais' section of /crm/configuracoes (admin only; issue 13): what the broker gives the
 * portals, and the two changes it allows — a new feed address (the old one stops working) and a
 * new webhook password (random, or typed by hand). Each change is one audit row naming the key
 * and how it changed, never the value; the settings table's trigger tells every process.
 */

export type PortalSettings = {
  /** The listings feed the portals read (VRSync XML). */
  feedUrl: string;
  /** Where the portals post their leads, and the HTTP Basic user and password they use. */
  webhookUrl: string;
  webhookUser: string;
  webhookSecret: string;
};

export async function loadPortalSettings(db: Database, publicUrl: string): Promise<PortalSettings> {
  const { feedToken, webhookSecret } = await loadPortalKeys(db);
  return {
    feedUrl: `${publicUrl}/feeds/vrsync/${feedToken}.xml`,
    webhookUrl: `${publicUrl}/api/portais/leads`,
    webhookUser: PORTAL_WEBHOOK_USER,
    webhookSecret,
  };
}

/** 32 URL-safe characters: fits the feed token's pattern and the webhook password's rule. */
const randomKey = () => crypto.randomBytes(24).toString("base64url");

async function saveKey(db: Database, actor: AuditActor, key: string, value: string, method: "gerada" | "manual") {
  await db.transaction(async (tx) => {
    await tx
      .insert(settings)
      .values({ key, value, updated_by: actor?.id ?? null })
      .onConflictDoUpdate({ target: settings.key, set: { value, updated_at: new Date(), updated_by: actor?.id ?? null } });
    // Which key and how, never the value: whoever reads the audit trail must not learn the secret.
    await recordAudit(tx, { actor, action: "settings.update", entity: "settings", entityId: key, details: { key, method } });
  });
  dropSettingsCache();
}

/** A new random feed token: the feed's address changes and the old one answers 404. */
export async function regenerateFeedToken(db: Database, actor: AuditActor): Promise<SaveResult> {
  await saveKey(db, actor, SETTING_KEYS.portalFeedToken, randomKey(), "gerada");
  return { ok: true, changed: [SETTING_KEYS.portalFeedToken] };
}

/** A new webhook password: random (`typed` undefined) or the one typed by hand (16–200 visible characters). */
export async function setWebhookSecret(db: Database, actor: AuditActor, typed?: unknown): Promise<SaveResult> {
  if (typed === undefined) {
    await saveKey(db, actor, SETTING_KEYS.portalWebhookSecret, randomKey(), "gerada");
    return { ok: true, changed: [SETTING_KEYS.portalWebhookSecret] };
  }
  const parsed = webhookSecretSchema.safeParse(typed);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? SETTINGS_MESSAGES.webhookSecret;
    return { ok: false, errors: { secret: message }, message };
  }
  const { webhookSecret } = await loadPortalKeys(db);
  if (parsed.data === webhookSecret) return { ok: true, changed: [] };
  await saveKey(db, actor, SETTING_KEYS.portalWebhookSecret, parsed.data, "manual");
  return { ok: true, changed: [SETTING_KEYS.portalWebhookSecret] };
}
