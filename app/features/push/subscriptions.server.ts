import { and, asc, count, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { push_preferences, push_subscriptions } from "~/db/schema";
import { type AuditActor, recordAudit, type Tx } from "~/features/audit/audit.server";
import type { Env } from "~/lib/env.server";
import { MAX_DEVICES_PER_USER, PUSH_KINDS, type PushKind } from "./kinds";
import type { PushPreferencesInput, PushSubscriptionInput } from "./schema";

/**
 * A staff member's devices (Web Push subscriptions) and alert preferences. The endpoint is a URL
 * the browser hands us and the server will post to, so only the browsers' push services are
 * accepted (https, their hosts): a forged subscription cannot make the server call anything else.
 */

/** The browsers' own push services: Chrome/Android (FCM), Firefox, Safari, Edge. */
const PUSH_HOSTS = ["fcm.googleapis.com", "updates.push.services.mozilla.com", "web.push.apple.com"];
const PUSH_HOST_SUFFIXES = [".push.services.mozilla.com", ".push.apple.com", ".notify.windows.com"];

export function acceptedEndpoint(endpoint: string, env: Pick<Env, "PUSH_SERVICE_HOSTS">): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  const extra = (env.PUSH_SERVICE_HOSTS ?? "").split(",").map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (extra.includes(host)) return true;
  if (url.port) return false;
  return PUSH_HOSTS.includes(host) || PUSH_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/** "Chrome no Android": enough to tell one's devices apart, nothing that identifies the machine. */
export function deviceSummary(userAgent: string): string {
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /SamsungBrowser\//.test(ua)
      ? "Samsung Internet"
      : /Firefox\/|FxiOS\//.test(ua)
        ? "Firefox"
        : /OPR\//.test(ua)
          ? "Opera"
          : /Chrome\/|CriOS\//.test(ua)
            ? "Chrome"
            : /Safari\//.test(ua)
              ? "Safari"
              : "Navegador";
  const system = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad|iPod/.test(ua)
      ? "iPhone/iPad"
      : /Windows/.test(ua)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(ua)
          ? "Mac"
          : /Linux|CrOS/.test(ua)
            ? "Linux"
            : null;
  return system ? `${browser} no ${system}` : browser;
}

export type SubscribeResult = { ok: true; id: string } | { ok: false; reason: "service" | "too-many" };

/**
 * Registers this browser for the staff member. An endpoint already known moves to this user (a
 * shared computer where someone else signed in before): a device alerts one person only.
 */
export async function subscribeDevice(db: Database, env: Pick<Env, "PUSH_SERVICE_HOSTS">, actor: NonNullable<AuditActor>, input: PushSubscriptionInput): Promise<SubscribeResult> {
  if (!acceptedEndpoint(input.endpoint, env)) return { ok: false, reason: "service" };
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: push_subscriptions.id, user_id: push_subscriptions.user_id }).from(push_subscriptions).where(eq(push_subscriptions.endpoint, input.endpoint));
    if (!existing || existing.user_id !== actor.id) {
      const [{ n }] = await tx.select({ n: count() }).from(push_subscriptions).where(eq(push_subscriptions.user_id, actor.id));
      if (n >= MAX_DEVICES_PER_USER) return { ok: false as const, reason: "too-many" as const };
    }
    const values = { user_id: actor.id, endpoint: input.endpoint, p256dh: input.p256dh, auth: input.auth, device: deviceSummary(input.userAgent) };
    const [row] = await tx
      .insert(push_subscriptions)
      .values(values)
      .onConflictDoUpdate({ target: push_subscriptions.endpoint, set: { ...values, created_at: existing && existing.user_id !== actor.id ? new Date() : undefined } })
      .returning({ id: push_subscriptions.id });
    if (!existing || existing.user_id !== actor.id) {
      await recordAudit(tx, { actor, action: "push_device.create", entity: "user", entityId: actor.id, details: { device: values.device } });
    }
    return { ok: true as const, id: row.id };
  });
}

/** Removes one of the caller's devices, by id (the list) or by endpoint (sign-out of that browser). */
export async function removeDevice(db: Database, actor: NonNullable<AuditActor>, by: { id: string } | { endpoint: string }, reason?: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const match = "id" in by ? eq(push_subscriptions.id, by.id) : eq(push_subscriptions.endpoint, by.endpoint);
    const removed = await tx
      .delete(push_subscriptions)
      .where(and(match, eq(push_subscriptions.user_id, actor.id)))
      .returning({ id: push_subscriptions.id, device: push_subscriptions.device });
    if (removed.length === 0) return false;
    await recordAudit(tx, { actor, action: "push_device.delete", entity: "user", entityId: actor.id, details: { device: removed[0].device, ...(reason ? { reason } : {}) } });
    return true;
  });
}

export type DeviceView = { id: string; device: string; createdAt: string; lastUsedAt: string | null; endpoint: string };

export async function listDevices(db: Database, userId: string): Promise<DeviceView[]> {
  const rows = await db
    .select()
    .from(push_subscriptions)
    .where(eq(push_subscriptions.user_id, userId))
    .orderBy(asc(push_subscriptions.created_at), asc(push_subscriptions.id));
  return rows.map((row) => ({
    id: row.id,
    device: row.device,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
    // The page compares it with this browser's own to say 'este aparelho' (it is the user's own).
    endpoint: row.endpoint,
  }));
}

export type PushPreferences = { kinds: PushKind[]; reminderEmail: boolean };
export const DEFAULT_PREFERENCES: PushPreferences = { kinds: [...PUSH_KINDS], reminderEmail: false };

export async function loadPreferences(db: Database, userId: string): Promise<PushPreferences> {
  const [row] = await db.select().from(push_preferences).where(eq(push_preferences.user_id, userId));
  if (!row) return DEFAULT_PREFERENCES;
  return { kinds: PUSH_KINDS.filter((kind) => row.kinds.includes(kind)), reminderEmail: row.reminder_email };
}

export async function savePreferences(db: Database, actor: NonNullable<AuditActor>, input: PushPreferencesInput): Promise<void> {
  const kinds = PUSH_KINDS.filter((kind) => input.kinds.includes(kind));
  await db.transaction(async (tx) => {
    await tx
      .insert(push_preferences)
      .values({ user_id: actor.id, kinds, reminder_email: input.reminderEmail })
      .onConflictDoUpdate({ target: push_preferences.user_id, set: { kinds, reminder_email: input.reminderEmail, updated_at: new Date() } });
    await recordAudit(tx, { actor, action: "push_preferences.update", entity: "user", entityId: actor.id, details: { kinds, reminderEmail: input.reminderEmail } });
  });
}

/**
 * Every device of a user stops receiving alerts, in the caller's transaction (features/auth
 * endAccess: 'Sair' and a new password take back every key). Audited only when there was one.
 */
export async function removeAllDevicesInTx(tx: Tx, actor: AuditActor, userId: string, reason: string): Promise<number> {
  const removed = await tx.delete(push_subscriptions).where(eq(push_subscriptions.user_id, userId)).returning({ id: push_subscriptions.id });
  if (removed.length > 0) await recordAudit(tx, { actor, action: "push_device.delete", entity: "user", entityId: userId, details: { devices: removed.length, reason } });
  return removed.length;
}
