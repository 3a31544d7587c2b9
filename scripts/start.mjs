// `npm start`: build when there is no build or the sources changed since the last one, then serve.
//
// Stopping (issue 21): a service manager or a container signals the one process it started.
// package.json runs this with `exec`, so that process is this one's (npm passes SIGTERM/SIGINT
// to its child; a plain `sh -c` in between would die and leave the server running). From here
// every stop signal is passed on to whatever runs below — the build, or the server — and this
// process leaves only once that has ended.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unsupportedNodeMessage } from "./node-version.mjs";

const unsupported = unsupportedNodeMessage();
if (unsupported) {
  console.error(unsupported);
  process.exit(1);
}

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

const STOP_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"];

/**
 * The build, in a process group of its own so that a stop signal reaches all of it (Vite may
 * start helpers of its own); resolves to its exit status, or exits this process when a stop
 * was asked for, once nothing of the build runs any more.
 */
async function build() {
  const child = spawn(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.js"), "build"], { cwd: root, stdio: "inherit", detached: true });
  let stopping = false;
  const stop = (signal) => {
    stopping = true;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  const status = await new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
  for (const signal of STOP_SIGNALS) process.off(signal, stop);
  if (!stopping) return status;
  try {
    // Whatever of the group outlived its leader goes too.
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // nothing left
  }
  console.log("[start] Build interrompido: encerrado.");
  process.exit(0);
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
// A production install (npm install --omit=dev) has no build tools: it serves the build it was
// given, even when copying the files made the sources look newer.
const canBuild = fs.existsSync(path.join(root, "node_modules/@react-router/dev/package.json"));
if (!canBuild && built === 0) {
  console.error(
    "[start] No production build (build/) and no build tools: this is a production install " +
      "(npm install --omit=dev). Run `npm run build` where the dev dependencies are installed and copy build/ here.",
  );
  process.exit(1);
}
if (canBuild && (built === 0 || Math.max(...inputs.map(newestChange)) > built)) {
  console.log("[start] Gerando o build de produção...");
  const status = await build();
  if (status !== 0) process.exit(status);
}

process.env.NODE_ENV ??= "production";

// glibc's allocator keeps memory that sharp's libvips frees after the demo photos are processed
// at first start: each allocating thread gets its own arena (up to 8 per core), and after a large
// buffer is freed the threshold for giving big blocks their own mapping rises to 32 MB, so later
// pixel buffers land in arenas that never shrink. Two arenas and a fixed 1 MB threshold (big
// buffers mapped and unmapped, returned to the system at once) keep the seeded server lean
// (README, "Performance"). The allocator reads these once at process start.
const MALLOC_TUNING = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "1048576" };
const mallocUnset = process.env.MALLOC_ARENA_MAX === undefined && process.env.MALLOC_MMAP_THRESHOLD_ === undefined;
// V8 sizes its heap from the machine's memory (a limit of about 4 GB on a 23 GB machine) and,
// under load, lets it grow far before collecting: 200 connections for 20 s left the embedded
// server at 645 MB resident. With a 512 MB limit it collects sooner at the same throughput: 381 MB
// after the same burst (160, 256 and 384 MB gave 341, 381 and 391: the limit's presence is what
// counts). The largest thing we hold, a 20,000-row spreadsheet export, peaks at ~225 MB of heap,
// so two at once still fit. An operator's own --max-old-space-size (NODE_OPTIONS) wins.
const HEAP_LIMIT = "--max-old-space-size=512";
/** Marks the child this script starts, which watches for this process to go away. */
const PARENT_WATCH = "CORRETOR_STOP_WITH_PARENT";
const heapUnset = ![...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((flag) => flag.includes("max-old-space-size"));
if (mallocUnset || heapUnset) {
  // Both are read when a process starts: the server runs in a child that has them, and gets our
  // signals (cluster workers inherit them from it).
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    env: {
      ...process.env,
      ...(mallocUnset ? MALLOC_TUNING : {}),
      ...(heapUnset ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${HEAP_LIMIT}`.trim() } : {}),
      [PARENT_WATCH]: "1",
    },
    // The IPC channel is how the server learns that this process is gone (see below).
    stdio: ["inherit", "inherit", "inherit", "ipc"],
  });
  for (const signal of STOP_SIGNALS) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  if (process.env[PARENT_WATCH] && process.channel) {
    // Started by the process above: if it dies without passing a signal on (SIGKILL, a crash),
    // the channel closes, and the server stops as if told to, instead of running on alone.
    delete process.env[PARENT_WATCH];
    process.channel.unref();
    process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
  }
  // Serve in this process, so SIGTERM/SIGINT reach the server's clean shutdown directly.
  const { register } = await import("tsx/esm/api");
  register();
  await import("../server/main.ts");
}
