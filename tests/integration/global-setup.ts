import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateDatabase, migrationsFolder, openPglite, openPostgres } from "~/db/client.server";

/**
 * Migrating a fresh embedded database costs seconds and hundreds of MB, so it happens once per
 * set of migrations: every test file then copies the migrated folder (PGlite) or clones the
 * migrated template database (PostgreSQL, CREATE DATABASE … TEMPLATE).
 */
function migrationsHash(): string {
  const hash = crypto.createHash("sha256");
  for (const file of fs.readdirSync(migrationsFolder()).sort()) {
    const full = path.join(migrationsFolder(), file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest("hex").slice(0, 12);
}

export default async function setup(project: TestProject) {
  const hash = migrationsHash();
  const templateDir = path.resolve(`.tmp/test-templates/pglite-${hash}`);
  if (!fs.existsSync(path.join(templateDir, "ready"))) {
    fs.rmSync(templateDir, { recursive: true, force: true });
    const handle = await openPglite(templateDir);
    await migrateDatabase(handle);
    await handle.close();
    fs.writeFileSync(path.join(templateDir, "ready"), new Date().toISOString());
  }
  project.provide("pgliteTemplateDir", templateDir);

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const templateName = `${new URL(url).pathname.slice(1)}_tpl_${hash}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const exists = await admin.query("select 1 from pg_database where datname = $1", [templateName]);
    if (exists.rowCount === 0) {
      await admin.query(`create database ${pg.escapeIdentifier(templateName)}`);
      const templateUrl = new URL(url);
      templateUrl.pathname = `/${templateName}`;
      const handle = await openPostgres(templateUrl.toString(), 2);
      await migrateDatabase(handle);
      await handle.close();
    }
    await admin.end();
    project.provide("postgresTemplate", templateName);
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplateDir: string;
    postgresTemplate?: string;
  }
}
