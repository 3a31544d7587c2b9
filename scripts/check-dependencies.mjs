// `npm run deps:check`: what the production tree is exposed to.
//
// First `npm audit --omit=dev`, which needs the registry's advisory service. Where that service
// cannot be reached (these machines reach only the registry's package documents: the audit
// endpoint answers 405), it says so and checks what the package documents themselves tell:
//   - installed versions their authors marked deprecated (how many security problems are announced);
//   - installed versions behind the newest release of their own line (same major; same minor
//     for 0.x): security fixes ship as such releases, and taking them needs no code change.
// Exit status 1 when audit found advisories, or with --strict when the fallback found anything.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const strict = process.argv.includes("--strict");

const audit = spawnSync("npm", ["audit", "--omit=dev", "--json"], { encoding: "utf8" });
let auditReport;
try {
  auditReport = JSON.parse(audit.stdout);
} catch {
  auditReport = undefined;
}
if (auditReport && !auditReport.error && auditReport.metadata) {
  const counts = auditReport.metadata.vulnerabilities;
  console.log(`npm audit (production tree): ${JSON.stringify(counts)}`);
  if (counts.total > 0) spawnSync("npm", ["audit", "--omit=dev"], { stdio: "inherit" });
  process.exit(counts.total > 0 ? 1 : 0);
}
const reason =
  auditReport?.message || auditReport?.error?.summary || audit.stderr.split("\n").find((line) => /\b(40\d|50\d)\b|ENOTFOUND|ECONN/.test(line)) || "no answer";
console.log(`npm audit could not reach the advisory service (${reason.trim()}).`);
console.log("Checking the production tree against the registry's package documents instead.\n");

const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const installed = new Map();
for (const [location, entry] of Object.entries(lock.packages ?? {})) {
  // Dev-only packages never reach a production install (npm install --omit=dev).
  if (!location || entry.dev || !entry.version) continue;
  // Other platforms' builds (optional packages for another os or cpu) are never installed here.
  if (entry.os && !entry.os.includes(process.platform)) continue;
  if (entry.cpu && !entry.cpu.includes(process.arch)) continue;
  const name = entry.name ?? location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);
  if (!installed.has(name)) installed.set(name, new Set());
  installed.get(name).add(entry.version);
}

/** The newest version on the same line: same major, or same minor for 0.x. Pre-releases skipped. */
export function newestOnLine(version, published) {
  const [major, minor] = version.split(".").map(Number);
  let newest = version;
  for (const candidate of published) {
    if (candidate.includes("-")) continue;
    const [cMajor, cMinor] = candidate.split(".").map(Number);
    if (cMajor !== major || (major === 0 && cMinor !== minor)) continue;
    if (compare(candidate, newest) > 0) newest = candidate;
  }
  return newest;
}

function compare(a, b) {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

const deprecated = [];
const behind = [];
const unreachable = [];
const names = [...installed.keys()];
async function check(name) {
  const response = await fetch(`https://registry.npmjs.org/${name.replace("/", "%2F")}`, {
    headers: { Accept: "application/vnd.npm.install-v1+json" },
  }).catch(() => null);
  if (!response?.ok) return unreachable.push(name);
  const document = await response.json();
  for (const version of installed.get(name)) {
    const notice = document.versions?.[version]?.deprecated;
    if (notice) deprecated.push(`${name}@${version}: ${notice}`);
    const newest = newestOnLine(version, Object.keys(document.versions ?? {}));
    if (newest !== version) behind.push(`${name}@${version} → ${newest}`);
  }
}
for (let i = 0; i < names.length; i += 8) await Promise.all(names.slice(i, i + 8).map(check));

console.log(`${names.length} production packages checked.`);
console.log(`\nDeprecated by their authors (${deprecated.length}):`);
for (const line of deprecated.sort()) console.log(`  ${line}`);
console.log(`\nBehind the newest release of their line (${behind.length}):`);
for (const line of behind.sort()) console.log(`  ${line}`);
if (unreachable.length) console.log(`\nNot found in the registry (${unreachable.length}): ${unreachable.join(", ")}`);
console.log("\nA package behind its line is not necessarily vulnerable; read its changelog, then `npm update <name>`.");
process.exit(strict && deprecated.length + behind.length > 0 ? 1 : 0);
