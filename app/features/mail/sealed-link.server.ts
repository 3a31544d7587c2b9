import crypto from "node:crypto";
import { ensureAuthSecret } from "~/features/auth/auth.server";
import type { Env } from "~/lib/env.server";

/**
 * The token of an account e-mail's link (confirmation, new password, invitation) is never
 * stored in the clear: the outbox row's bodies hold LINK_TOKEN_PLACEHOLDER where it goes, and the
 * token itself is sealed (AES-256-GCM) with a key derived from the auth secret — AUTH_SECRET or
 * DATA_DIR/auth-secret, which neither a backup archive nor a pg_dump holds. The sender opens it
 * just before handing the message to the SMTP server and the row forgets it once sent, so a copy
 * of the database holds no usable link (decision 011).
 */

/** Stands for the token in a stored body. Not a token: tokens are 43 base64url characters. */
export const LINK_TOKEN_PLACEHOLDER = "__token__";

export type SecretSource = Pick<Env, "dataDir" | "AUTH_SECRET">;

const VERSION = "v1";
const keys = new Map<string, Buffer>();

function keyFor(env: SecretSource): Buffer {
  const secret = ensureAuthSecret(env.dataDir, env.AUTH_SECRET);
  let key = keys.get(secret);
  if (!key) {
    // A key of its own for this use: the auth secret itself also signs sessions.
    key = Buffer.from(crypto.hkdfSync("sha256", secret, "corretor-outbox", "outbox link token v1", 32));
    keys.set(secret, key);
  }
  return key;
}

export function sealLinkToken(env: SecretSource, token: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyFor(env), iv);
  const sealed = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), sealed.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
}

/** The token, or null when the value was sealed with another secret (or is not a sealed token). */
export function openLinkToken(env: SecretSource, value: string): string | null {
  const [version, iv, sealed, tag] = value.split(".");
  if (version !== VERSION || !iv || !sealed || !tag) return null;
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", keyFor(env), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/** A stored body with its link made whole again (the token is URL-safe base64: no escaping needed). */
export function withLinkToken(body: string, token: string): string {
  return body.split(LINK_TOKEN_PLACEHOLDER).join(encodeURIComponent(token));
}

/** Why a message whose link cannot be made whole again is not sent (shown under CRM → E-mails). */
export const LINK_UNAVAILABLE =
  "Não enviado: o link deste e-mail não pode mais ser aberto (expirou ou a chave AUTH_SECRET mudou). Peça um novo link.";

export const needsLinkToken = (body: string | null) => body?.includes(LINK_TOKEN_PLACEHOLDER) ?? false;
