import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { settings } from "~/db/schema";
import type { Role } from "~/db/values";
import { type AuditActor, changedFields, recordAudit } from "~/features/audit/audit.server";
import { DEAL_SETTINGS_MESSAGES, DEFAULT_DEAL_SETTINGS, type DealSettings, parseDealSettings } from "./deal-settings";

/** One row of the settings table; a stored value that fails the rules counts as the defaults. */
export const DEAL_SETTINGS_KEY = "deal_settings";

export async function loadDealSettings(db: Database): Promise<DealSettings> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, DEAL_SETTINGS_KEY));
  if (!row || !row.value || typeof row.value !== "object") return DEFAULT_DEAL_SETTINGS;
  const parsed = parseDealSettings(row.value as Record<string, unknown>);
  return parsed.ok ? parsed.value : DEFAULT_DEAL_SETTINGS;
}

/** Whether this role may see and change commissions and their splits (admins always). */
export function canSeeCommissions(role: Role, dealSettings: DealSettings): boolean {
  return role === "admin" || dealSettings.corretorSeesCommissions;
}

export type DealSettingsSave = { ok: true; message: string } | { ok: false; field: string; message: string };

export async function saveDealSettings(db: Database, actor: AuditActor, input: Record<string, unknown>): Promise<DealSettingsSave> {
  const parsed = parseDealSettings(input);
  if (!parsed.ok) return parsed;
  const before = await loadDealSettings(db);
  const fields = changedFields(before, parsed.value, ["salePercent", "rentFirstRentPercent", "corretorSeesCommissions"]);
  if (fields.length === 0) return { ok: true, message: DEAL_SETTINGS_MESSAGES.unchanged };
  await db.transaction(async (tx) => {
    await tx
      .insert(settings)
      .values({ key: DEAL_SETTINGS_KEY, value: parsed.value, updated_by: actor?.id ?? null })
      .onConflictDoUpdate({ target: settings.key, set: { value: parsed.value, updated_at: new Date(), updated_by: actor?.id ?? null } });
    await recordAudit(tx, { actor, action: "settings.update", entity: "settings", entityId: DEAL_SETTINGS_KEY, details: { key: DEAL_SETTINGS_KEY, fields } });
  });
  return { ok: true, message: DEAL_SETTINGS_MESSAGES.saved };
}
