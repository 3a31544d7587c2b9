import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { TEMPLATE_DIR } from "../tests/e2e/template";

/** Starts the production server on a fresh copy of the seeded template; resolves when it answers. */
export async function startServer(port: number, env: Record<string, string> = {}): Promise<{ url: string; process: ChildProcess; stop(): Promise<void> }> {
  const dataDir = path.resolve(`.tmp/bench-${port}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (!env.DATABASE_URL) fs.cpSync(TEMPLATE_DIR, dataDir, { recursive: true });
  fs.rmSync(path.join(dataDir, "pglite.lock"), { force: true });
  const child = spawn("npx", ["tsx", "server/main.ts"], {
    env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://localhost:${port}`, SEED_DEMO: "false", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(url + "/robots.txt")).status < 500) break;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    process: child,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;
