import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { media, settings } from "~/db/schema";
import { type AuditActor, changedFields, recordAudit } from "~/features/audit/audit.server";
import type { LiveHub } from "~/features/live/hub.server";
import { deleteUnusedMedia } from "~/features/media/cleanup.server";
import { mediaIdFromUrl } from "~/features/media/urls";
import type { MediaStorage } from "~/features/media/storage.server";
import type { BrokerProfile } from "~/features/site/broker-profile";
import { getBrokerProfile } from "~/features/site/broker-profile.server";
import { loadedRuntime } from "~/features/runtime/handle.server";
import { EDITABLE_PROFILE_FIELDS, type EditableProfileField, SETTING_KEYS } from "./keys";
import {
  type ProfileInput,
  SETTINGS_MESSAGES,
  isAllowedPortrait,
  notificationEmailsSchema,
  profileSchema,
  templatesSchema,
} from "./schema";
import { DEFAULT_WHATSAPP_TEMPLATES, type WhatsappTemplate } from "./templates";

/**
 * The broker's settings, stored in the `settings` table (one JSON value per key); a key not yet
 * saved falls back to its first-run default from the environment. A stored value is checked
 * again when read: a row edited by hand that fails the rules falls back to the default.
 */

export { SETTING_KEYS } from "./keys";

export async function readSetting<T>(db: Database, key: string): Promise<T | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value as T | undefined;
}

/** Where new-lead alerts go (first-run default: the broker's e-mail, BROKER_EMAIL). */
export async function loadNotificationEmails(db: Database): Promise<string[]> {
  const stored = notificationEmailsSchema.safeParse(await readSetting<unknown>(db, SETTING_KEYS.notificationEmails));
  return stored.success ? stored.data : [getBrokerProfile().email];
}

export async function loadWhatsappTemplates(db: Database): Promise<WhatsappTemplate[]> {
  const value = await readSetting<unknown>(db, SETTING_KEYS.whatsappTemplates);
  if (value === undefined) return DEFAULT_WHATSAPP_TEMPLATES;
  const stored = templatesSchema.safeParse(value);
  return stored.success ? stored.data : DEFAULT_WHATSAPP_TEMPLATES;
}

// --- The broker's profile: read on every page, so kept in memory between changes ---

/** The saved profile over the environment's defaults, each saved field checked on its own. */
async function readBrokerProfile(db: Database): Promise<BrokerProfile> {
  const defaults = getBrokerProfile();
  const saved = await readSetting<unknown>(db, SETTING_KEYS.brokerProfile);
  const profile: BrokerProfile = { ...defaults };
  if (!saved || typeof saved !== "object" || Array.isArray(saved)) return profile;
  const values = saved as Record<string, unknown>;
  for (const field of EDITABLE_PROFILE_FIELDS) {
    if (!(field in values)) continue;
    const checked = profileSchema.shape[field].safeParse(values[field]);
    if (!checked.success) continue;
    if (field === "portraitUrl" && !isAllowedPortrait(checked.data as string, defaults.portraitUrl)) continue;
    (profile as Record<EditableProfileField, string>)[field] = checked.data as string;
  }
  return profile;
}

/*
 * One copy per process, dropped the moment this process hears of a settings change: its own save
 * (dropSettingsCache right after the commit) and every other process's (the settings table's
 * trigger notifies every listener; LiveHub.onChange calls us synchronously, before any request
 * can read the stale copy). "*" (the listener reconnected, events may be lost) drops it too.
 */
let cached: { db: Database; promise: Promise<BrokerProfile> } | undefined;
/**
 * The latest-started read that has finished, for code that cannot wait (the mail sender's name).
 * Ordered by when reads started, not by when they finished: a read that began before a late
 * notification is still newer than what we had, and the read the notification starts replaces it.
 */
let lastKnown: { db: Database; profile: BrokerProfile; seq: number } | undefined;
let readSeq = 0;
const watchedHubs = new WeakSet<LiveHub>();

export function dropSettingsCache(): void {
  cached = undefined;
}

function watch(live: LiveHub, db: Database) {
  if (watchedHubs.has(live)) return;
  watchedHubs.add(live);
  live.onChange((table) => {
    if (table !== "settings" && table !== "*") return;
    dropSettingsCache();
    // Read the new profile now, so brokerProfileNow() is current within moments too.
    loadBrokerProfile(db).catch(() => {});
  });
}

/**
 * The broker's profile as every page shows it. The process's runtime database is cached (and
 * watched); any other database handle is read directly.
 */
export async function loadBrokerProfile(db: Database): Promise<BrokerProfile> {
  // Without the composition root (the CLI) there is no runtime database to cache.
  const runtime = await loadedRuntime();
  if (runtime?.db !== db) return readBrokerProfile(db);
  watch(runtime.live, db);
  if (cached?.db === db) return cached.promise;
  const seq = ++readSeq;
  const promise = readBrokerProfile(db).then((profile) => {
    if (!lastKnown || seq > lastKnown.seq) lastKnown = { db, profile, seq };
    return profile;
  });
  cached = { db, promise };
  // A failed read is not kept: the next request tries again.
  promise.catch(() => {
    if (cached?.promise === promise) cached = undefined;
  });
  return promise;
}

/**
 * The profile without waiting (for synchronous code: the e-mails' site name): the last one read
 * in this process, else the environment's defaults.
 */
export function brokerProfileNow(): BrokerProfile {
  if (!cached && lastKnown) loadBrokerProfile(lastKnown.db).catch(() => {});
  return lastKnown?.profile ?? getBrokerProfile();
}

// --- Saving (the settings page's action) ---

type SaveDeps = { db: Database; storage: MediaStorage };
export type SaveResult = { ok: true; changed: string[] } | { ok: false; errors: Record<string, string>; message: string };

function issuesToErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): { errors: Record<string, string>; message: string } {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_form";
    errors[key] ??= issue.message;
  }
  return { errors, message: issues[0]?.message ?? SETTINGS_MESSAGES.malformed };
}

export async function upsertSetting(db: Database | Parameters<Parameters<Database["transaction"]>[0]>[0], key: string, value: unknown, actor: AuditActor) {
  await db
    .insert(settings)
    .values({ key, value, updated_by: actor?.id ?? null })
    .onConflictDoUpdate({ target: settings.key, set: { value, updated_at: new Date(), updated_by: actor?.id ?? null } });
}

/** Saves the profile's editable fields; the audit row names the fields that changed, never values. */
export async function saveBrokerProfile(deps: SaveDeps, actor: AuditActor, input: Record<string, unknown>): Promise<SaveResult> {
  const parsed = profileSchema.safeParse(input);
  if (!parsed.success) return { ok: false, ...issuesToErrors(parsed.error.issues) };
  const next: ProfileInput = parsed.data;
  const defaults = getBrokerProfile();
  if (!isAllowedPortrait(next.portraitUrl, defaults.portraitUrl) || !(await portraitExists(deps.db, next.portraitUrl))) {
    return { ok: false, errors: { portraitUrl: SETTINGS_MESSAGES.portrait }, message: SETTINGS_MESSAGES.portrait };
  }
  const before = await readBrokerProfile(deps.db);
  const changed = changedFields(before, next, EDITABLE_PROFILE_FIELDS);
  if (changed.length === 0) return { ok: true, changed };
  await deps.db.transaction(async (tx) => {
    await upsertSetting(tx, SETTING_KEYS.brokerProfile, next, actor);
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      entity: "settings",
      entityId: SETTING_KEYS.brokerProfile,
      details: { key: SETTING_KEYS.brokerProfile, fields: changed },
    });
  });
  dropSettingsCache();
  // The replaced portrait goes once nothing shows it (deleteUnusedMedia checks listings and the profile).
  if (before.portraitUrl !== next.portraitUrl && mediaIdFromUrl(before.portraitUrl)) {
    await deleteUnusedMedia(deps, [before.portraitUrl]).catch(() => {});
  }
  return { ok: true, changed };
}

/** A posted upload must exist: a made-up /media/ URL would show a broken image on every page. */
async function portraitExists(db: Database, url: string): Promise<boolean> {
  const id = mediaIdFromUrl(url);
  if (!id) return true;
  const [row] = await db.select({ id: media.id }).from(media).where(eq(media.id, id));
  return Boolean(row);
}

export async function saveNotificationEmails(db: Database, actor: AuditActor, addresses: string[]): Promise<SaveResult> {
  const parsed = notificationEmailsSchema.safeParse(addresses);
  if (!parsed.success) return { ok: false, ...issuesToErrors(parsed.error.issues.map((issue) => ({ ...issue, path: ["emails"] }))) };
  const before = await loadNotificationEmails(db);
  if (JSON.stringify(before) === JSON.stringify(parsed.data)) return { ok: true, changed: [] };
  await db.transaction(async (tx) => {
    await upsertSetting(tx, SETTING_KEYS.notificationEmails, parsed.data, actor);
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      entity: "settings",
      entityId: SETTING_KEYS.notificationEmails,
      // How many, not which: addresses are personal data.
      details: { key: SETTING_KEYS.notificationEmails, count: parsed.data.length },
    });
  });
  dropSettingsCache();
  return { ok: true, changed: [SETTING_KEYS.notificationEmails] };
}

/** New templates (no id yet) get one here; ids keep a template recognisable across edits. */
export async function saveWhatsappTemplates(
  db: Database,
  actor: AuditActor,
  input: { id?: string; name?: unknown; body?: unknown }[],
): Promise<SaveResult> {
  const withIds = input.map((template) => ({ ...template, id: template.id || `modelo-${crypto.randomBytes(4).toString("hex")}` }));
  const parsed = templatesSchema.safeParse(withIds);
  if (!parsed.success) {
    return { ok: false, ...issuesToErrors(parsed.error.issues.map((issue) => ({ ...issue, path: ["templates", ...issue.path] }))) };
  }
  const before = await loadWhatsappTemplates(db);
  const next = parsed.data;
  const beforeById = new Map(before.map((template) => [template.id, template]));
  const nextIds = new Set(next.map((template) => template.id));
  const added = next.filter((template) => !beforeById.has(template.id)).length;
  const removed = before.filter((template) => !nextIds.has(template.id)).length;
  const edited = next.filter((template) => {
    const old = beforeById.get(template.id);
    return old && (old.name !== template.name || old.body !== template.body);
  }).length;
  const reordered = JSON.stringify(before.map((t) => t.id)) !== JSON.stringify(next.map((t) => t.id));
  if (added + removed + edited === 0 && !reordered) return { ok: true, changed: [] };
  await db.transaction(async (tx) => {
    await upsertSetting(tx, SETTING_KEYS.whatsappTemplates, next, actor);
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      entity: "settings",
      entityId: SETTING_KEYS.whatsappTemplates,
      details: { key: SETTING_KEYS.whatsappTemplates, added, edited, removed },
    });
  });
  dropSettingsCache();
  return { ok: true, changed: [SETTING_KEYS.whatsappTemplates] };
}
