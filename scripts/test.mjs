// `npm test`: every test. The layers' dependency check (npm run deps:layers), unit and
// integration tests (vitest; PostgreSQL too when TEST_DATABASE_URL is set), then a production
// build and the browser tests (Playwright on the system Chromium) against it. Stops at the first
// failing step.
import { spawnSync } from "node:child_process";
import { unsupportedNodeMessage } from "./node-version.mjs";

const unsupported = unsupportedNodeMessage();
if (unsupported) {
  console.error(unsupported);
  process.exit(1);
}
console.log(`Node ${process.versions.node} (${process.execPath})`);

const steps = [
  // A few seconds: no import circle, and features/lib/db never import the root or a route (decision 034).
  ["one-way dependencies", "npx", ["depcruise", "app", "server", "--config", ".dependency-cruiser.cjs"]],
  ["unit and integration tests", "npx", ["vitest", "run"]],
  ["production build", "npx", ["react-router", "build"]],
  ["browser test data", "npx", ["tsx", "tests/e2e/prepare-template.ts"]],
  // Two Playwright runs at once (see scripts/test-browser.mjs); arguments make it one run.
  ["browser tests", process.execPath, ["scripts/test-browser.mjs", ...process.argv.slice(2)]],
];

for (const [name, command, args] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  console.log(`◀ ${name}: ${result.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}
