import crypto from "node:crypto";
import { and, eq, gt, like, lt, sql } from "drizzle-orm";
import { verification } from "~/db/schema";
import type { DbOrTx } from "~/features/mail/outbox.server";

/**
 * The secrets in our e-mailed links (e-mail verification, password reset, invitations): 256
 * random bits, stored only as their sha256, so a copy of the database holds no usable link.
 * Each is single-use: taking it is one `delete … returning` (or an update with a guard), so two
 * clicks at once cannot both succeed.
 */

export type TokenPurpose = "email-verification" | "password-reset";

export const TOKEN_LIFETIME_SECONDS: Record<TokenPurpose, number> = {
  // Long enough to find the mail the next morning.
  "email-verification": 24 * 60 * 60,
  "password-reset": 60 * 60,
};

export function newToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export function tokenHash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

const identifierOf = (purpose: TokenPurpose, token: string) => `${purpose}:${tokenHash(token)}`;

/** A fresh token for the user; old expired rows of any kind go at the same time. */
export async function issueToken(db: DbOrTx, purpose: TokenPurpose, userId: string): Promise<string> {
  const token = newToken();
  await db.delete(verification).where(lt(verification.expiresAt, sql`now() - interval '1 day'`));
  await db.insert(verification).values({
    id: crypto.randomUUID(),
    identifier: identifierOf(purpose, token),
    value: userId,
    expiresAt: sql`now() + make_interval(secs => ${TOKEN_LIFETIME_SECONDS[purpose]})` as unknown as Date,
  });
  return token;
}

/** The user a valid token belongs to, without using it up (a page showing its form). */
export async function peekToken(db: DbOrTx, purpose: TokenPurpose, token: string): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .select({ userId: verification.value })
    .from(verification)
    .where(and(eq(verification.identifier, identifierOf(purpose, token)), gt(verification.expiresAt, sql`now()`)));
  return row?.userId ?? null;
}

/** Uses a token up: the user it belonged to, or null when it was unknown, used or expired. */
export async function takeToken(db: DbOrTx, purpose: TokenPurpose, token: string): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const [row] = await db
    .delete(verification)
    .where(and(eq(verification.identifier, identifierOf(purpose, token)), gt(verification.expiresAt, sql`now()`)))
    .returning({ userId: verification.value });
  return row?.userId ?? null;
}

/** Every outstanding token of one kind for a user (after a reset, the other reset links die). */
export async function dropTokens(db: DbOrTx, purpose: TokenPurpose, userId: string): Promise<void> {
  await db.delete(verification).where(and(like(verification.identifier, `${purpose}:%`), eq(verification.value, userId)));
}
