import fs from "node:fs";
import path from "node:path";
import { E2E_ADMIN } from "../../playwright.config";
import { parseEnv } from "~/lib/env.server";
import { startRuntime, stopRuntime } from "~/runtime.server";
import { TEMPLATE_DIR, templateFingerprint } from "./template";

/** Seeds the browser tests' template data folder, unless an up-to-date one exists. */
const fingerprint = templateFingerprint();
const readyFile = path.join(TEMPLATE_DIR, "ready");
if (fs.existsSync(readyFile) && fs.readFileSync(readyFile, "utf8") === fingerprint) {
  console.log("[e2e] template up to date");
} else {
  fs.rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  const started = Date.now();
  await startRuntime({
    env: parseEnv({
      NODE_ENV: "production",
      DATA_DIR: TEMPLATE_DIR,
      SEED_DEMO: "true",
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
    }),
    log: () => {},
  });
  await stopRuntime();
  fs.writeFileSync(readyFile, fingerprint);
  console.log(`[e2e] template seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
