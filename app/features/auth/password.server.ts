import argon2 from "argon2";
import { verifyPassword as verifyScrypt } from "better-auth/crypto";
import { PASSWORD_MAX, PASSWORD_MESSAGES, PASSWORD_MIN } from "./schema";

/**
 * How passwords are stored and checked, for better-auth (`emailAndPassword.password`) and for our
 * own flows alike: argon2id at OWASP's baseline (19 MiB, 2 passes, 1 lane) in PHC string form,
 * so each hash carries its parameters and can be upgraded later. Hashes made before this module
 * (better-auth's scrypt, "salt:key" in hex) still verify, and are replaced at the next sign-in.
 */

export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

const counter = globalThis as unknown as { __passwordVerifications?: number; __passwordHashes?: number };

/**
 * How many password verifications this process has run. The sign-in throttle promises a bound on
 * it, and the tests read it to check that promise against real work rather than responses.
 */
export function passwordVerificationCount(): number {
  return counter.__passwordVerifications ?? 0;
}

/**
 * How many passwords this process has hashed: the public link pages promise that a dead link
 * costs no hash, and the tests check that promise against this count.
 */
export function passwordHashCount(): number {
  return counter.__passwordHashes ?? 0;
}

export function hashPassword(password: string): Promise<string> {
  counter.__passwordHashes = passwordHashCount() + 1;
  return argon2.hash(password, ARGON2_OPTIONS);
}

/** Constant-time comparison in both branches (argon2's own, and better-auth's for scrypt). */
export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  counter.__passwordVerifications = passwordVerificationCount() + 1;
  try {
    if (hash.startsWith("$argon2")) return await argon2.verify(hash, password);
    if (/^[0-9a-f]+:[0-9a-f]+$/i.test(hash)) return await verifyScrypt({ hash, password });
  } catch {
    // A malformed hash verifies nothing.
  }
  return false;
}

/** A stored hash that is not argon2id with today's parameters gets replaced once the password is known. */
export function needsRehash(hash: string): boolean {
  if (!hash.startsWith("$argon2id$")) return true;
  try {
    return argon2.needsRehash(hash, {
      memoryCost: ARGON2_OPTIONS.memoryCost,
      timeCost: ARGON2_OPTIONS.timeCost,
      parallelism: ARGON2_OPTIONS.parallelism,
    });
  } catch {
    return true;
  }
}

let commonPasswords: Set<string> | undefined;

/** ~49,000 common and breached passwords (zxcvbn's list), loaded once, on the server only. */
async function loadCommonPasswords(): Promise<Set<string>> {
  if (!commonPasswords) {
    const { dictionary } = await import("@zxcvbn-ts/language-common");
    commonPasswords = new Set((dictionary["passwords-common"] as string[]).map((word) => word.toLowerCase()));
  }
  return commonPasswords;
}

/**
 * Why a password may not be chosen, in Portuguese, or null when it may. Applied wherever a
 * password is set: sign-up, reset, change, invitation, the CLI and ADMIN_PASSWORD.
 */
export async function passwordProblem(password: string): Promise<string | null> {
  if (password.length < PASSWORD_MIN) return PASSWORD_MESSAGES.min;
  if (password.length > PASSWORD_MAX) return PASSWORD_MESSAGES.max;
  if ((await loadCommonPasswords()).has(password.toLowerCase())) return PASSWORD_MESSAGES.common;
  return null;
}

/** A password a person or a rule refused: the message says why. */
export class PasswordRejectedError extends Error {}

export async function assertAcceptablePassword(password: string): Promise<void> {
  const problem = await passwordProblem(password);
  if (problem) throw new PasswordRejectedError(problem);
}
