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

test("npm install --omit=dev gives a tree that serves the site on Node 24", async () => {
  test.setTimeout(300_000);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  for (const entry of COPIED) fs.cpSync(path.resolve(entry), path.join(root, entry), { recursive: true });

  // npm itself may be the system's (any Node that runs npm); what it installs decides the rest.
  const install = spawnSync("npm", ["install", "--omit=dev", "--no-audit", "--no-fund"], { cwd: root, encoding: "utf8", timeout: 240_000 });
  expect(install.status, install.stderr).toBe(0);

  const modules = path.join(root, "node_modules");
  // Our own build and test tools stay out (better-auth's optional peers are npm's business: README).
  for (const tool of ["@react-router/dev", "vite", "@playwright/test", "lighthouse", "autocannon", "tailwindcss", "eslint", "smtp-server", "s3rver"]) {
    expect(fs.existsSync(path.join(modules, tool)), `${tool} in the production tree`).toBe(false);
  }
  // The Node the scripts run on came with the install.
  const version = spawnSync(path.join(modules, ".bin/node"), ["--version"], { encoding: "utf8" });
  expect(version.stdout.trim()).toMatch(/^v24\./);

  const dataDir = path.join(root, "data");
  let server: ChildProcess | undefined;
  let output = "";
  try {
    // `npm start` as an operator runs it: npm puts node_modules/.bin (Node 24) first on the PATH.
    server = spawn("npm", ["start"], {
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

    await expect
      .poll(async () => (await fetch(`http://localhost:${PORT}/healthz`).catch(() => null))?.status ?? 0, { timeout: 120_000, intervals: [500] })
      .toBe(200);
    expect(output).not.toContain("Gerando o build");

    const home = await fetch(`http://localhost:${PORT}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("<title>");
    const signIn = await fetch(`http://localhost:${PORT}/auth`);
    expect(signIn.status).toBe(200);
  } finally {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
      await new Promise((resolve) => (server!.exitCode !== null ? resolve(null) : server!.once("exit", resolve)));
    }
  }
  expect(output).not.toMatch(/Cannot find (module|package)/);
});
