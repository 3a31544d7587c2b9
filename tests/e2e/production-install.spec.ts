import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * Issue 21, item 12: a production install — the build plus `npm install --omit=dev`, as a server
 * that never builds gets it — runs the site, on the Node 24 that the install itself brought, and
 * holds none of the build or test tools of our own dev dependencies.
 */
const PORT = 3731;
const root = path.resolve(".tmp/production-install");

/** What the server needs besides node_modules: the build, the start script, the server and the app's TS modules it imports. */
const COPIED = ["package.json", "package-lock.json", "tsconfig.json", "scripts", "server", "app", "build", "public"];

/** The build and test tools of our own dev dependencies. */
const OUR_TOOLS = ["@react-router/dev", "@playwright/test", "lighthouse", "autocannon", "tailwindcss", "eslint", "smtp-server", "s3rver"];
/** Optional peers of better-auth that npm installs with --omit=dev when the lock file holds them (README). */
const BETTER_AUTH_PEERS = ["vitest", "vite", "drizzle-kit", "typescript", "happy-dom"];

function install(args: string[]) {
  // --prefer-offline: the packages are in npm's cache from the project's own install; asking the
  // registry about each again only costs CI minutes.
  const result = spawnSync("npm", ["install", ...args, "--prefer-offline", "--no-audit", "--no-fund"], { cwd: root, encoding: "utf8", timeout: 240_000 });
  expect(result.status, result.stderr).toBe(0);
}
const installed = (name: string) => fs.existsSync(path.join(root, "node_modules", name));

test("npm install --omit=dev gives a tree that serves the site on Node 24, and the lean install leaves every tool out", async () => {
  test.setTimeout(420_000);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  for (const entry of COPIED) fs.cpSync(path.resolve(entry), path.join(root, entry), { recursive: true });

  // npm itself may run on the system's Node; what it installs decides the rest.
  install(["--omit=dev"]);
  for (const tool of OUR_TOOLS) expect(installed(tool), `${tool} in the production tree`).toBe(false);
  const version = spawnSync(path.join(root, "node_modules/.bin/node"), ["--version"], { encoding: "utf8" });
  expect(version.stdout.trim()).toMatch(/^v24\./);
  await servesTheSite();

  // The lean production install of the README: without the dev dependencies' list, npm has no
  // reason left to install better-auth's optional peers.
  fs.rmSync(path.join(root, "node_modules"), { recursive: true, force: true });
  expect(spawnSync("npm", ["pkg", "delete", "devDependencies"], { cwd: root }).status).toBe(0);
  install(["--omit=dev"]);
  for (const tool of [...OUR_TOOLS, ...BETTER_AUTH_PEERS]) expect(installed(tool), `${tool} in the lean tree`).toBe(false);
  expect(installed("sharp") && installed("@img/sharp-linux-x64") && installed("tsx")).toBe(true);
  await servesTheSite();
});

/** `npm start` as an operator runs it (npm puts node_modules/.bin, Node 24, first on the PATH). */
async function servesTheSite() {
  const dataDir = path.join(root, "data");
  fs.rmSync(dataDir, { recursive: true, force: true });
  let output = "";
  const server: ChildProcess = spawn("npm", ["start"], {
    cwd: root,
    detached: true,
    env: {
      ...process.env,
      NODE_OPTIONS: "",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://localhost:${PORT}`,
      DATA_DIR: dataDir,
      SEED_DEMO: "false",
      DATABASE_URL: "",
      ADMIN_EMAIL: "admin@producao.com.br",
      ADMIN_PASSWORD: "senha-de-producao-1",
      LOG_LEVEL: "warn",
    },
  });
  server.stdout!.on("data", (chunk) => (output += chunk));
  server.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => server.once("exit", resolve));
  try {
    await expect
      .poll(async () => (await fetch(`http://localhost:${PORT}/healthz`).catch(() => null))?.status ?? 0, { timeout: 120_000, intervals: [500] })
      .toBe(200);
    expect(output).not.toContain("Gerando o build");
    const home = await fetch(`http://localhost:${PORT}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("<title>");
    expect((await fetch(`http://localhost:${PORT}/auth`)).status).toBe(200);
  } finally {
    // The whole process group: npm, its shell and the server.
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await exited;
  }
  expect(output).not.toMatch(/Cannot find (module|package)/);
}
