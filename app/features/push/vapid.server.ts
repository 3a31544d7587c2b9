import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import webPush from "web-push";
import type { Database } from "~/db/client.server";
import { push_subscriptions, settings } from "~/db/schema";
import { ensureAuthSecret } from "~/features/auth/auth.server";
import { SETTING_KEYS } from "~/features/settings/keys";
import type { Env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";

/**
 * The VAPID key pair that signs our pushes (RFC 8292). From VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY
 * when set; otherwise generated on first use and kept in `settings`, the private half sealed
 * (AES-256-GCM) with a key derived from the auth secret, which no backup or pg_dump holds — a
 * copy of the database cannot send pushes in our name. Several processes starting at once agree
 * through insert … on conflict do nothing, then read back.
 */

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };
type EnvPart = Pick<Env, "dataDir" | "AUTH_SECRET" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT" | "publicUrl">;
type Stored = { publicKey: string; privateKey: string };

const log = logger("push");
const VERSION = "v1";

function sealKey(env: EnvPart): Buffer {
  const secret = ensureAuthSecret(env.dataDir, env.AUTH_SECRET);
  // A key of its own for this use: the auth secret also signs sessions and seals e-mail links.
  return Buffer.from(crypto.hkdfSync("sha256", secret, "corretor-vapid", "vapid private key v1", 32));
}

export function sealPrivateKey(env: EnvPart, privateKey: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", sealKey(env), iv);
  const sealed = Buffer.concat([cipher.update(privateKey, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), sealed.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
}

function openPrivateKey(env: EnvPart, value: string): string | null {
  const [version, iv, sealed, tag] = value.split(".");
  if (version !== VERSION || !iv || !sealed || !tag) return null;
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", sealKey(env), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** Who push services may contact about our pushes: VAPID_SUBJECT, the https site, or a mailto. */
export function vapidSubject(env: Pick<EnvPart, "VAPID_SUBJECT" | "publicUrl">): string {
  if (env.VAPID_SUBJECT) return env.VAPID_SUBJECT;
  const url = new URL(env.publicUrl);
  return url.protocol === "https:" ? url.origin : `mailto:nao-responda@${url.hostname.replace(/^\[|\]$/g, "") || "localhost"}`;
}

function isStored(value: unknown): value is Stored {
  const v = value as Partial<Stored> | null;
  return typeof v?.publicKey === "string" && typeof v.privateKey === "string";
}

const cache = new WeakMap<object, Promise<VapidKeys>>();

async function readOrCreate(db: Database, env: EnvPart): Promise<VapidKeys> {
  const subject = vapidSubject(env);
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  const read = async () => (await db.select({ value: settings.value }).from(settings).where(eq(settings.key, SETTING_KEYS.vapidKeys)))[0]?.value;
  let stored = await read();
  if (stored === undefined) {
    const fresh = webPush.generateVAPIDKeys();
    await db
      .insert(settings)
      .values({ key: SETTING_KEYS.vapidKeys, value: { publicKey: fresh.publicKey, privateKey: sealPrivateKey(env, fresh.privateKey) } })
      .onConflictDoNothing();
    stored = await read();
  }
  const opened = isStored(stored) ? openPrivateKey(env, stored.privateKey) : null;
  if (isStored(stored) && opened) return { publicKey: stored.publicKey, privateKey: opened, subject };
  // Sealed with another auth secret (a copy started elsewhere, a changed AUTH_SECRET): the pair
  // is useless, and so is every subscription made with its public key. A new pair; devices
  // turn their alerts on again in 'Minha conta'.
  log.warn("the stored VAPID key cannot be opened with this auth secret: a new key pair is made and devices must turn alerts on again");
  const fresh = webPush.generateVAPIDKeys();
  await db.transaction(async (tx) => {
    await tx
      .update(settings)
      .set({ value: { publicKey: fresh.publicKey, privateKey: sealPrivateKey(env, fresh.privateKey) }, updated_at: new Date() })
      .where(eq(settings.key, SETTING_KEYS.vapidKeys));
    await tx.delete(push_subscriptions);
  });
  return { publicKey: fresh.publicKey, privateKey: fresh.privateKey, subject };
}

/** The key pair (once per database handle and process). */
export function loadVapidKeys(db: Database, env: EnvPart): Promise<VapidKeys> {
  let keys = cache.get(db);
  if (!keys) {
    keys = readOrCreate(db, env).catch((error) => {
      cache.delete(db);
      throw error;
    });
    cache.set(db, keys);
  }
  return keys;
}
