import pg from "pg";
import { startServerProcess } from "../tests/helpers/server-process";
import { TEMPLATE_DIR } from "../tests/e2e/template";

/** The production server on a fresh copy of the seeded template (or on DATABASE_URL when given). */
export function startServer(port: number, env: Record<string, string> = {}) {
  return startServerProcess({ port, env, templateDir: env.DATABASE_URL ? undefined : TEMPLATE_DIR });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** A database of this name on TEST_DATABASE_URL's server (the benches' own, recreated each run). */
export function databaseOnTestServer(name: string): string | undefined {
  if (!process.env.TEST_DATABASE_URL) return undefined;
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database the URL names, if it exists, and creates it empty. */
export async function recreateDatabase(databaseUrl: string) {
  const admin = new URL(databaseUrl);
  const name = admin.pathname.slice(1);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    await client.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/** As `npm start` runs the server (scripts/start.mjs), quiet, with the per-address lead limit out of the way. */
export const BENCH_SERVER_ENV = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "1048576",
  NODE_OPTIONS: "--max-old-space-size=512",
  LOG_LEVEL: "warn",
  LEAD_LIMIT_PER_HOUR: "1000000",
};
