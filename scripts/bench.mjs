// `npm run bench`: performance figures, reported, never asserted, against the production build
// (built first when missing). With no name it runs bench/load.bench.ts, issue 10's side-by-side
// figures (README, "Performance"); `npm run bench -- live pages` runs those, `-- all` every one.
// BENCH_SCALE=0.2 shortens the load bench's durations for a quick look.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const args = process.argv.slice(2);
const wanted = args.length === 0 ? ["load"] : args.includes("all") ? [] : args;
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
