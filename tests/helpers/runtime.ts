import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { parseEnv } from "~/lib/env.server";
import { type Runtime, startRuntime, stopRuntime } from "~/runtime.server";

/** Which databases the integration suites run on: always PGlite, PostgreSQL when configured. */
export const DATABASE_KINDS: ("pglite" | "postgres")[] = process.env.TEST_DATABASE_URL
  ? ["pglite", "postgres"]
  : ["pglite"];

export type TestRuntime = { runtime: Runtime; kind: "pglite" | "postgres"; dataDir: string; stop(): Promise<void> };

/**
 * A runtime on a database of its own: a copy of the migrated PGlite template, or a PostgreSQL
 * database cloned from the migrated template. No demo seed, no admin: tests make their own data.
 */
export async function startTestRuntime(
  kind: "pglite" | "postgres",
  extraEnv: Record<string, string> = {},
  options: {
    /** PostgreSQL: the URL the app is given for its database (e.g. through a test's TCP proxy). */
    routeDatabaseUrl?: (url: string) => string;
    /** The embedded database's DATA_DIR (e.g. a small filesystem a test fills up). */
    dataDir?: string;
  } = {},
): Promise<TestRuntime> {
  const id = crypto.randomBytes(6).toString("hex");
  const dataDir = options.dataDir ?? path.resolve(`.tmp/test-runs/${id}`);
  fs.mkdirSync(dataDir, { recursive: true });
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};

  if (kind === "pglite") {
    // The template is a data folder (its database in pglite/): copy it as DATA_DIR, or PGlite
    // finds no database in DATA_DIR/pglite and makes and migrates a new one for every file.
    fs.cpSync(path.join(inject("pgliteTemplateDir"), "pglite"), path.join(dataDir, "pglite"), { recursive: true });
  } else {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `${new URL(base).pathname.slice(1)}_run_${id}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${pg.escapeIdentifier(name)} template ${pg.escapeIdentifier(inject("postgresTemplate")!)}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await client.end();
    };
  }

  const env = parseEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    SEED_DEMO: "false",
    PUBLIC_URL: "http://localhost:3000",
    ...(databaseUrl ? { DATABASE_URL: options.routeDatabaseUrl ? options.routeDatabaseUrl(databaseUrl) : databaseUrl } : {}),
    ...extraEnv,
  });
  await stopRuntime();
  const runtime = await startRuntime({ env, firstStartTasks: false, log: () => {} });
  return {
    runtime,
    kind,
    dataDir,
    async stop() {
      await stopRuntime();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
