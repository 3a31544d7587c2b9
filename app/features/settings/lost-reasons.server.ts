import type { Database } from "~/db/client.server";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { SETTING_KEYS } from "./keys";
import { DEFAULT_LOST_REASONS, lostReasonsSchema } from "./lost-reasons";
import { readSetting, type SaveResult, upsertSetting } from "./settings.server";

/** The reasons offered when a lead is lost; a stored list that fails the rules falls back to the defaults. */
export async function loadLostReasons(db: Database): Promise<string[]> {
  const value = await readSetting<unknown>(db, SETTING_KEYS.lostReasons);
  if (value === undefined) return [...DEFAULT_LOST_REASONS];
  const stored = lostReasonsSchema.safeParse(value);
  return stored.success ? stored.data : [...DEFAULT_LOST_REASONS];
}

/**
 * Saves the list as the admin left it (order included). Leads keep the label they were lost
 * for, so removing a reason here changes no lead. The audit row counts, never lists.
 */
export async function saveLostReasons(db: Database, actor: AuditActor, input: unknown[]): Promise<SaveResult> {
  const parsed = lostReasonsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length ? `reasons.${issue.path.map(String).join(".")}` : "reasons";
    return { ok: false, errors: { [field]: issue.message }, message: issue.message };
  }
  const before = await loadLostReasons(db);
  const next = parsed.data;
  if (JSON.stringify(before) === JSON.stringify(next)) return { ok: true, changed: [] };
  const added = next.filter((label) => !before.includes(label)).length;
  const removed = before.filter((label) => !next.includes(label)).length;
  await db.transaction(async (tx) => {
    await upsertSetting(tx, SETTING_KEYS.lostReasons, next, actor);
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      entity: "settings",
      entityId: SETTING_KEYS.lostReasons,
      details: { key: SETTING_KEYS.lostReasons, count: next.length, added, removed },
    });
  });
  return { ok: true, changed: [SETTING_KEYS.lostReasons] };
}
