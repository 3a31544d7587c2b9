import crypto from "node:crypto";
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

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
  /** Start on the data a previous process on this port left (a restart), instead of a fresh copy. */
  keepData?: boolean;
}): Promise<ServerProcess> {
  const dataDir = path.resolve(`.tmp/server-${options.port}`);
  if (!options.keepData) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (options.templateDir) fs.cpSync(options.templateDir, dataDir, { recursive: true });
  }
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

/** A PostgreSQL client for one piece of work, closed afterwards. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty PostgreSQL database beside `base`'s, named after `label`; `drop` removes it. */
export async function createOwnDatabase(base: string, label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${new URL(base).pathname.slice(1)}_${label}_${crypto.randomBytes(4).toString("hex")}`;
  await withClient(base, (client) => client.query(`create database ${pg.escapeIdentifier(name)}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(base, (client) => client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`)).then(() => {}),
  };
}

/**
 * The production server on a database of its own: with TEST_DATABASE_URL a fresh PostgreSQL
 * database (named after `label`, dropped by `stop`), else a copy of the browser tests' seeded
 * embedded template. `databaseUrl` is set only on PostgreSQL, for tests that read it directly.
 */
export async function startServerOnOwnDatabase(options: {
  port: number;
  label: string;
  env: Record<string, string>;
  templateDir: string;
}): Promise<{ server: ServerProcess; databaseUrl?: string; stop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const server = await startServerProcess({ port: options.port, templateDir: options.templateDir, env: options.env });
    return { server, stop: () => server.stop() };
  }
  const database = await createOwnDatabase(base, options.label);
  const databaseUrl = database.url;
  const server = await startServerProcess({ port: options.port, env: { ...options.env, DATABASE_URL: databaseUrl } });
  return {
    server,
    databaseUrl,
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}
