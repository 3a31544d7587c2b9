import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The seeded data folder the browser tests start from. Seeding renders ~50 photos, so it is
 * made once per version of the migrations and the seed, then copied for each run.
 */
export const TEMPLATE_DIR = path.resolve(".tmp/e2e-template");
export const RUN_DIR = path.resolve(".tmp/e2e-data");

export function templateFingerprint(): string {
  const hash = crypto.createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else hash.update(full).update(fs.readFileSync(full));
    }
  };
  walk(path.resolve("app/db/migrations"));
  walk(path.resolve("app/features/properties/seed"));
  walk(path.resolve("app/features/media"));
  return hash.digest("hex").slice(0, 16);
}
