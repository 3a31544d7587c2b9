// `npm run bench`: performance figures, reported, never asserted. Runs each benchmark in bench/
// against the production build (built first when missing). Usage: npm run bench [-- name...]
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const wanted = process.argv.slice(2);
if (!fs.existsSync("build/server/index.js")) {
  const build = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}
const prepare = spawnSync("npx", ["tsx", "tests/e2e/prepare-template.ts"], { stdio: "inherit" });
if (prepare.status !== 0) process.exit(1);

const benches = fs.readdirSync("bench").filter((file) => file.endsWith(".bench.ts")).sort();
for (const file of benches) {
  if (wanted.length && !wanted.some((name) => file.includes(name))) continue;
  console.log(`\n▶ ${file}`);
  const result = spawnSync("npx", ["tsx", `bench/${file}`], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
