// The browser tests, as `npm test` runs them (after the build and tests/e2e/prepare-template.ts).
// Arguments (files, --grep…) go to one Playwright run of everything. Without them, two runs at
// once (playwright.config.ts, OWN_SERVER_SPECS): the specs that share one server, in order, and
// beside them the specs that start servers of their own, each line of theirs marked [own]. Much
// of the second group's time is waiting on the processes it starts, which the first fills. Both
// must pass.
import { spawn } from "node:child_process";
import readline from "node:readline";

function playwright(part, args) {
  return new Promise((resolve) => {
    const own = part === "own";
    const child = spawn("npx", ["playwright", "test", ...args], {
      env: part ? { ...process.env, E2E_PART: part } : process.env,
      stdio: ["ignore", own ? "pipe" : "inherit", own ? "pipe" : "inherit"],
    });
    if (own) {
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on("line", (line) => console.log(`[own] ${line}`));
      }
    }
    child.on("close", (code) => resolve(code ?? 1));
  });
}

const args = process.argv.slice(2);
const codes = args.length > 0 ? [await playwright(undefined, args)] : await Promise.all([playwright("shared", []), playwright("own", [])]);
process.exit(codes.find((code) => code !== 0) ?? 0);
