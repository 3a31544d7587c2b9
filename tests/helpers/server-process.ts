import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The production server in a child process (`tsx server/main.ts`, as `npm start` runs it), for
 * benchmarks and for tests that need several processes. Resolves once it answers HTTP.
 */
export type ServerProcess = { url: string; process: ChildProcess; output: () => string; stop(): Promise<void> };

export async function startServerProcess(options: {
  port: number;
  env?: Record<string, string>;
  /** Copy this data folder first (an embedded-database template); omit with DATABASE_URL. */
  templateDir?: string;
}): Promise<ServerProcess> {
  const dataDir = path.resolve(`.tmp/server-${options.port}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (options.templateDir) fs.cpSync(options.templateDir, dataDir, { recursive: true });
  fs.mkdirSync(dataDir, { recursive: true });
  fs.rmSync(path.join(dataDir, "pglite.lock"), { force: true });

  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      PORT: String(options.port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://localhost:${options.port}`,
      SEED_DEMO: "false",
      // One process unless a test asks for workers (on PostgreSQL the default is one per core).
      WEB_CONCURRENCY: "1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const url = `http://localhost:${options.port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${options.port} exited:\n${output}`);
    try {
      if ((await fetch(`${url}/robots.txt`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() - started > 120_000) throw new Error(`server on ${options.port} did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    process: child,
    output: () => output,
    async stop() {
      // A process killed by a signal has no exit code, only a signal code: it is gone too.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
