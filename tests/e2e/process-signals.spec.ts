import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createOwnDatabase } from "../helpers/server-process";
import { TEMPLATE_DIR } from "./template";

/**
 * Issue 21, finding 13: a container or a service manager stops the server by signalling the
 * process it started — `npm start` (npm runs its script through `sh -c`; scripts/start.mjs may
 * build first, then runs the server in a child with the allocator's settings), `node
 * scripts/start.mjs`, the cluster's primary, or `server/main.ts` itself. SIGTERM or SIGINT sent
 * to that one process (not to its process group) must stop the whole tree cleanly: no process of
 * it left running, and the embedded database's lock released. Each case starts real processes
 * the way an operator does.
 */

const ROOT = process.cwd();
const ADMIN = { ADMIN_EMAIL: "admin@sinais.test", ADMIN_PASSWORD: "senha-dos-sinais-1" };

/** Every process below `pid`, from /proc (children before their own children). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Whether a process still runs (a zombie waiting to be reaped has ended). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** Starts `command` as an operator would, in a process group of its own (for the final cleanup only). */
function start(command: string, args: string[], env: Record<string, string>, cwd = ROOT): Started {
  let output = "";
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, started: Started, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (started.child.exitCode !== null || started.child.signalCode !== null) throw new Error(`exited before ${what}:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`no ${what} after ${ms} ms:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const answers = (port: number) => () =>
  fetch(`http://127.0.0.1:${port}/robots.txt`).then(
    (response) => response.ok,
    () => false,
  );

/**
 * Signals the started process alone and waits for it to end; then nothing of its tree may run.
 * Whatever did survive is killed afterwards, so a failing case leaves nothing behind.
 */
async function stopAndCheck(started: Started, signal: NodeJS.Signals, tree: number[]) {
  started.child.kill(signal);
  const code = await Promise.race([started.exited, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 40_000))]);
  const survivors = tree.filter(alive);
  try {
    process.kill(-started.child.pid!, "SIGKILL");
  } catch {
    // the group is gone
  }
  for (const pid of survivors) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  expect(code, started.output()).not.toBe("hung");
  expect(survivors, `processes left running after ${signal}:\n${started.output()}`).toEqual([]);
  return code;
}

function dataFolder(port: number): string {
  const dir = path.resolve(`.tmp/signals-${port}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(TEMPLATE_DIR, dir, { recursive: true });
  fs.rmSync(path.join(dir, "pglite.lock"), { force: true });
  return dir;
}

function serverEnv(port: number, dataDir: string): Record<string, string> {
  return { PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://localhost:${port}`, DATA_DIR: dataDir, SEED_DEMO: "false", LOG_LEVEL: "info", ...ADMIN };
}

for (const [label, command, args, signal, port] of [
  ["npm start, SIGTERM to npm", "npm", ["start"], "SIGTERM", 3261],
  ["npm start, SIGINT to npm", "npm", ["start"], "SIGINT", 3262],
  ["node scripts/start.mjs, SIGTERM", process.execPath, ["scripts/start.mjs"], "SIGTERM", 3263],
  ["server/main.ts directly, SIGINT", process.execPath, ["--import", "tsx", "server/main.ts"], "SIGINT", 3264],
] as const) {
  test(`${label}: the whole tree stops, the database's lock is released`, async () => {
    test.setTimeout(180_000);
    const dataDir = dataFolder(port);
    const started = start(command, [...args], serverEnv(port, dataDir));
    await waitFor("an answer", answers(port), started);
    const tree = [started.child.pid!, ...descendants(started.child.pid!)];
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(true);
    await stopAndCheck(started, signal, tree);
    await expect.poll(() => started.output()).toContain("Encerrado.");
    expect(fs.existsSync(path.join(dataDir, "pglite.lock")), started.output()).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
}

test("a stop asked for while the server starts: it stops once the database is open, and releases the lock", async () => {
  test.setTimeout(180_000);
  const port = 3265;
  const dataDir = dataFolder(port);
  const started = start(process.execPath, ["--import", "tsx", "server/main.ts"], serverEnv(port, dataDir));
  // The lock file appears as the database opens, seconds before the server listens.
  await waitFor("the database's lock", () => fs.existsSync(path.join(dataDir, "pglite.lock")), started);
  const tree = [started.child.pid!, ...descendants(started.child.pid!)];
  const code = await stopAndCheck(started, "SIGTERM", tree);
  expect(code, started.output()).toBe(0);
  expect(fs.existsSync(path.join(dataDir, "pglite.lock")), started.output()).toBe(false);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("start.mjs's own parent killed outright: the server it started notices and stops cleanly", async () => {
  test.setTimeout(180_000);
  const port = 3266;
  const dataDir = dataFolder(port);
  const started = start(process.execPath, ["scripts/start.mjs"], serverEnv(port, dataDir));
  await waitFor("an answer", answers(port), started);
  const server = descendants(started.child.pid!);
  expect(server.length).toBeGreaterThan(0);
  // SIGKILL cannot be passed on: the child must see its parent go by itself.
  started.child.kill("SIGKILL");
  const deadline = Date.now() + 40_000;
  while (server.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const survivors = server.filter(alive);
  for (const pid of survivors) process.kill(pid, "SIGKILL");
  expect(survivors, started.output()).toEqual([]);
  await expect.poll(() => started.output()).toContain("Encerrado.");
  expect(fs.existsSync(path.join(dataDir, "pglite.lock")), started.output()).toBe(false);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("npm start that must build first: SIGTERM during the build stops the build and everything under it", async () => {
  test.setTimeout(240_000);
  // A copy of the project without a build (node_modules shared), so the real build is untouched.
  const copy = path.resolve(".tmp/signals-build-copy");
  fs.rmSync(copy, { recursive: true, force: true });
  fs.mkdirSync(copy, { recursive: true });
  for (const entry of ["app", "public", "server", "scripts", "package.json", "react-router.config.ts", "vite.config.ts", "tsconfig.json"]) {
    fs.cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
  const dataDir = dataFolder(3267);
  const started = start("npm", ["start"], serverEnv(3267, dataDir), copy);
  // The build has started: its process (react-router build) runs under start.mjs.
  const building = () => descendants(started.child.pid!).some((pid) => commandLine(pid).includes("react-router") && commandLine(pid).includes("build"));
  await waitFor("the build", building, started);
  // Well into it (Vite compiling), not at its first instruction.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(building(), started.output()).toBe(true);
  const tree = [started.child.pid!, ...descendants(started.child.pid!)];
  await stopAndCheck(started, "SIGTERM", tree);
  fs.rmSync(copy, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test.describe("cluster on PostgreSQL", () => {
  const base = process.env.TEST_DATABASE_URL;
  test.skip(!base, "needs TEST_DATABASE_URL");

  test("node scripts/start.mjs with WEB_CONCURRENCY=2, SIGTERM to it: primary and workers all stop", async () => {
    test.setTimeout(180_000);
    const port = 3268;
    const database = await createOwnDatabase(base!, "signals");
    const dataDir = path.resolve(`.tmp/signals-${port}`);
    fs.rmSync(dataDir, { recursive: true, force: true });
    try {
      const started = start(process.execPath, ["scripts/start.mjs"], { ...serverEnv(port, dataDir), DATABASE_URL: database.url, WEB_CONCURRENCY: "2" });
      await waitFor("an answer", answers(port), started);
      // start.mjs, the primary it runs, and two workers.
      await waitFor("two workers", () => descendants(started.child.pid!).length >= 3, started);
      const tree = [started.child.pid!, ...descendants(started.child.pid!)];
      const code = await stopAndCheck(started, "SIGTERM", tree);
      expect(code, started.output()).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
