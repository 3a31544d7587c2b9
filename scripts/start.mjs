// `npm start`: build when there is no build or the sources changed since the last one, then serve.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// A .env file, when there is one, fills in variables the environment does not set.
if (fs.existsSync(path.join(root, ".env"))) process.loadEnvFile(path.join(root, ".env"));
const stamp = path.join(root, "build/server/index.js");
const inputs = ["app", "public", "package.json", "vite.config.ts", "react-router.config.ts"];

function newestChange(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestChange(path.join(entry, child)));
  return newest;
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (built === 0 || Math.max(...inputs.map(newestChange)) > built) {
  console.log("[start] Gerando o build de produção...");
  const result = spawnSync("npx", ["react-router", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Serve in this same process, so SIGTERM/SIGINT reach the server's clean shutdown directly.
process.env.NODE_ENV ??= "production";
const { register } = await import("tsx/esm/api");
register();
await import("../server/main.ts");
