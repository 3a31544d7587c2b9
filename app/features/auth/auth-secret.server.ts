import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The auth secret: AUTH_SECRET when configured, else one generated on first start into DATA_DIR. */
export function ensureAuthSecret(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, "auth-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
    // A damaged file (cut short): replaced below.
    fs.rmSync(file, { force: true });
  } catch {
    // Not there yet: generate below.
  }
  fs.mkdirSync(dataDir, { recursive: true });
  // Cluster workers sharing DATA_DIR start at once: each writes a candidate aside and links it
  // into place, which fails if another got there first; all then read the one that won, instead
  // of each keeping its own (sessions signed by one worker refused by the next).
  const candidate = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`;
  fs.writeFileSync(candidate, crypto.randomBytes(48).toString("base64url") + "\n", { mode: 0o600 });
  try {
    fs.linkSync(candidate, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(candidate, { force: true });
  }
  return fs.readFileSync(file, "utf8").trim();
}
