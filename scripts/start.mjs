// `npm start`: build when there is no build or the sources changed since the last one, then serve.
import { spawn, spawnSync } from "node:child_process";
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

process.env.NODE_ENV ??= "production";

// glibc's allocator keeps memory that sharp's libvips frees after the demo photos are processed
// at first start: each allocating thread gets its own arena (up to 8 per core), and after a large
// buffer is freed the threshold for giving big blocks their own mapping rises to 32 MB, so later
// pixel buffers land in arenas that never shrink. Two arenas and a fixed 1 MB threshold (big
// buffers mapped and unmapped, returned to the system at once) keep the seeded server lean
// (README, "Performance"). The allocator reads these once at process start, so unless the
// operator set them, the server runs in a child that has them, and gets our signals.
const MALLOC_TUNING = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "1048576" };
if (process.env.MALLOC_ARENA_MAX === undefined && process.env.MALLOC_MMAP_THRESHOLD_ === undefined) {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    env: { ...process.env, ...MALLOC_TUNING },
    stdio: "inherit",
  });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  // Serve in this process, so SIGTERM/SIGINT reach the server's clean shutdown directly.
  const { register } = await import("tsx/esm/api");
  register();
  await import("../server/main.ts");
}
