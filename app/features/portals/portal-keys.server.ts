import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { settings } from "~/db/schema";
import { SETTING_KEYS } from "~/features/settings/keys";
import { getEnv } from "~/lib/env.server";

/**
 * The portals' two keys (issue 13), kept in the `settings` table like the broker's other
 * settings: the VRSync feed's token (the feed's URL is /feeds/vrsync/<token>.xml) and the
 * password of the portals' lead webhook. First run: PORTAL_FEED_TOKEN / PORTAL_WEBHOOK_SECRET,
 * or a random value. Either way the value is written on first use, so the settings page shows
 * what the portals must be given and every process agrees on it (insert … on conflict do
 * nothing: two processes racing keep the first one's).
 */

export const FEED_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 200;

export type PortalKeys = { feedToken: string; webhookSecret: string };

const randomKey = () => crypto.randomBytes(24).toString("base64url");

function isValid(key: "feedToken" | "webhookSecret", value: unknown): value is string {
  if (typeof value !== "string") return false;
  return key === "feedToken"
    ? FEED_TOKEN_PATTERN.test(value)
    : value.length >= WEBHOOK_SECRET_MIN && value.length <= WEBHOOK_SECRET_MAX;
}

async function readOrCreate(db: Database, key: "feedToken" | "webhookSecret"): Promise<string> {
  const settingKey = key === "feedToken" ? SETTING_KEYS.portalFeedToken : SETTING_KEYS.portalWebhookSecret;
  const read = async () => (await db.select({ value: settings.value }).from(settings).where(eq(settings.key, settingKey)))[0]?.value;
  const stored = await read();
  if (isValid(key, stored)) return stored;
  const env = getEnv();
  const first = (key === "feedToken" ? env.PORTAL_FEED_TOKEN : env.PORTAL_WEBHOOK_SECRET) ?? randomKey();
  if (stored === undefined) {
    await db.insert(settings).values({ key: settingKey, value: first }).onConflictDoNothing();
    const now = await read();
    if (isValid(key, now)) return now;
  }
  // A row edited by hand into something invalid: the first-run value until it is saved again.
  return first;
}

export async function loadPortalKeys(db: Database): Promise<PortalKeys> {
  const [feedToken, webhookSecret] = await Promise.all([readOrCreate(db, "feedToken"), readOrCreate(db, "webhookSecret")]);
  return { feedToken, webhookSecret };
}

/** Constant-time comparison of a presented secret with the stored one (lengths may differ). */
export function sameSecret(presented: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(presented).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}
