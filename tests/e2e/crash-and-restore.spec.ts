import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { type ServerProcess, startServerProcess } from "../helpers/server-process";
import { TEMPLATE_DIR } from "./template";

/**
 * The production server as an operator runs it, in child processes (ports 3320–3339): nothing
 * personal in its logs, a graceful SIGTERM that finishes a request still arriving, no
 * acknowledged lead lost to SIGKILL (embedded database and PostgreSQL), and a scheduled backup
 * restored with the CLI into an empty folder serving the same listings and photos.
 * No browser: plain HTTP, as a proxy, a load balancer or a supervisor would speak to it.
 */

test.describe.configure({ mode: "serial" });

const dataDirOf = (port: number) => path.resolve(`.tmp/server-${port}`);

/** A lead through the public contact form, as a browser without JavaScript posts it. */
function postContact(server: ServerProcess, fields: Record<string, string>, query = "") {
  return fetch(`${server.url}/contato${query}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

const contact = (name: string, extra: Partial<Record<string, string>> = {}) => ({
  name,
  email: "lead@exemplo.com",
  phone: "(84) 99999-1111",
  message: "Tenho interesse em um imóvel.",
  ...extra,
});

/** A copy of the seeded template whose database refuses leads named `refusedName` (a CHECK). */
async function templateThatRefuses(refusedName: string): Promise<string> {
  const dir = path.resolve(".tmp/e2e-template-refusing");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(TEMPLATE_DIR, dir, { recursive: true });
  const db = await PGlite.create(path.join(dir, "pglite"));
  await db.exec(`alter table leads add constraint leads_refused_in_test check (full_name <> '${refusedName}')`);
  await db.close();
  return dir;
}

async function leadNamesIn(dataDir: string): Promise<string[]> {
  const db = await PGlite.create(path.join(dataDir, "pglite"));
  try {
    const { rows } = await db.query<{ full_name: string }>("select full_name from leads");
    return rows.map((row) => row.full_name);
  } finally {
    await db.close();
  }
}

async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const exited = (server: ServerProcess) =>
  server.process.exitCode !== null || server.process.signalCode !== null
    ? Promise.resolve(server.process.exitCode)
    : new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));

test("no lead data reaches the logs, whatever is posted, and no line can be forged", async () => {
  test.setTimeout(120_000);
  const refused = "Recusado Pelo Banco";
  const template = await templateThatRefuses(refused);
  const server = await startServerProcess({ port: 3320, templateDir: template, env: { LOG_LEVEL: "debug", LEAD_LIMIT_PER_HOUR: "1000" } });
  try {
    const secrets = ["Maria Logada", "98765-4321", "98765 4321", "maria.logada@exemplo.com", "apartamento logado", refused, "Joana Nul", "Forjada", "forjado@", "Pedro Query"];
    const statuses: number[] = [];
    const post = async (fields: Record<string, string>, query = "") => {
      const response = await postContact(server, fields, query);
      await response.text();
      statuses.push(response.status);
      return response.status;
    };

    // A valid lead, with personal data in the query string too.
    expect(await post(contact("Maria Logada Silva", { email: "maria.logada@exemplo.com", phone: "(84) 98765-4321", message: "Quero ver o apartamento logado" }), "?nome=Maria+Logada&tel=98765-4321")).toBe(200);
    // Invalid ones: a bad phone, a short message, a NUL in the name, a newline in the name.
    expect(await post(contact("Maria Logada Silva", { phone: "98765 4321" }))).toBe(400);
    expect(await post(contact("Maria Logada Silva", { message: "curta" }))).toBe(400);
    expect(await post(contact("Joana\u0000Nul"))).toBe(400);
    expect(await post(contact("Joana Nul\nSobrenome"))).toBe(400);
    // A message that tries to write a log line of its own (newlines are allowed in a message).
    const forged = '\n{"level":"error","msg":"Forjada","email":"forjado@exemplo.com"}\n';
    expect(await post(contact("Pessoa Forjada", { message: `Mensagem comprida o bastante${forged}` }))).toBe(200);
    // The database refuses one (a check constraint): a 500 whose error is logged.
    expect(await post(contact(refused, { email: "maria.logada@exemplo.com", phone: "(84) 98765-4321" }))).toBe(500);
    // Unreadable bodies and unknown routes, with data in the URL.
    expect([400, 413, 415]).toContain(
      (await fetch(`${server.url}/contato?email=maria.logada@exemplo.com`, { method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=x", Origin: server.url }, body: "--x\r\ngarbage" })).status,
    );
    await (await fetch(`${server.url}/nao-existe?nome=Pedro+Query&email=maria.logada@exemplo.com`, { method: "POST", headers: { Origin: server.url } })).text();
    await (await fetch(`${server.url}/contato.data?nome=Pedro+Query`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url }, body: "name=Pedro+Query" })).text();

    // The refused insert was logged (so the check below looks at a real error line).
    await waitFor(() => /"level":"error"/.test(server.output()), "the refused insert's error line");
    const output = server.output();
    for (const secret of secrets) expect(output, `log contains ${secret}`).not.toContain(secret);
    const lines = output.split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(typeof parsed.level).toBe("string");
      expect(parsed.msg).not.toBe("Forjada");
    }
    expect(statuses).toHaveLength(7);
  } finally {
    await server.stop();
    fs.rmSync(template, { recursive: true, force: true });
  }
});

test("SIGTERM lets a request whose body is still arriving finish, stores its lead, then exits cleanly", async () => {
  test.setTimeout(120_000);
  const server = await startServerProcess({ port: 3321, templateDir: TEMPLATE_DIR, env: { LEAD_LIMIT_PER_HOUR: "1000" } });
  try {
    const name = "Chegando Devagar";
    const body = new URLSearchParams(contact(name, { message: "Uma mensagem que chega aos poucos pela rede." })).toString();
    const half = Math.floor(body.length / 2);
    let answer = "";
    const response = new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${server.url}/contato`,
        {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(body.length), Origin: server.url },
        },
        (res) => {
          res.setEncoding("utf8");
          res.on("data", (chunk) => (answer += chunk));
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      request.on("error", reject);
      request.write(body.slice(0, half));
      // The headers and half the body are out: the server is reading this request.
      void (async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        server.process.kill("SIGTERM");
        await waitFor(() => /"signal":"SIGTERM"/.test(server.output()), "the server to start shutting down");
        // It no longer accepts new connections…
        await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
        // …while the request in flight gets the rest of its body.
        request.end(body.slice(half));
      })().catch(reject);
    });

    expect(await response).toBe(200);
    expect(answer).toContain("Mensagem enviada");
    expect(await exited(server)).toBe(0);
    await expect.poll(() => server.output()).toContain("Encerrado.");
    expect(fs.existsSync(path.join(dataDirOf(3321), "pglite.lock"))).toBe(false);
    expect(await leadNamesIn(dataDirOf(3321))).toContain(name);
  } finally {
    await server.stop();
  }
});

/**
 * Posts leads from several concurrent clients until `acknowledgedTarget` got a success answer,
 * then SIGKILLs the server mid-stream. Returns the names that were acknowledged.
 */
async function postUntilKilled(server: ServerProcess, acknowledgedTarget: number): Promise<string[]> {
  const acknowledged: string[] = [];
  let killed = false;
  let counter = 0;
  const worker = async (id: number) => {
    while (!killed) {
      const name = `Lead Crash ${id} ${counter++} ${crypto.randomBytes(3).toString("hex")}`;
      try {
        const response = await postContact(server, contact(name));
        const text = await response.text();
        if (response.status === 200 && text.includes("Mensagem enviada")) acknowledged.push(name);
      } catch {
        // Cut by the kill: not acknowledged.
      }
      if (!killed && acknowledged.length >= acknowledgedTarget) {
        killed = true;
        server.process.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, (_, id) => worker(id)));
  await exited(server);
  expect(server.process.signalCode).toBe("SIGKILL");
  return acknowledged;
}

test("SIGKILL while leads are being posted loses no acknowledged lead (embedded database)", async () => {
  test.setTimeout(180_000);
  const first = await startServerProcess({ port: 3322, templateDir: TEMPLATE_DIR, env: { LEAD_LIMIT_PER_HOUR: "100000", LOG_LEVEL: "warn" } });
  const crashed = path.resolve(".tmp/e2e-crashed-3322");
  let second: ServerProcess | undefined;
  try {
    const acknowledged = await postUntilKilled(first, 60);
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);
    // The folder as the killed process left it (its lock file names a dead process).
    fs.rmSync(crashed, { recursive: true, force: true });
    fs.cpSync(dataDirOf(3322), crashed, { recursive: true });

    // Restart on it: the database recovers and the site answers.
    second = await startServerProcess({ port: 3323, templateDir: crashed });
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    second.process.kill("SIGTERM");
    expect(await exited(second)).toBe(0);

    const stored = new Set(await leadNamesIn(dataDirOf(3323)));
    const lost = acknowledged.filter((name) => !stored.has(name));
    expect(lost).toEqual([]);
  } finally {
    await first.stop();
    await second?.stop();
    fs.rmSync(crashed, { recursive: true, force: true });
  }
});

test("SIGKILL while leads are being posted loses no acknowledged lead (PostgreSQL)", async () => {
  const base = process.env.TEST_DATABASE_URL;
  test.skip(!base, "TEST_DATABASE_URL is not set");
  test.setTimeout(180_000);
  const name = `crash_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  const url = new URL(base!);
  url.pathname = `/${name}`;
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess({ port: 3324, env: { DATABASE_URL: url.toString(), LEAD_LIMIT_PER_HOUR: "100000", LOG_LEVEL: "warn" } });
    const acknowledged = await postUntilKilled(server, 60);
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const { rows } = await client.query<{ full_name: string }>("select full_name from leads");
    await client.end();
    const stored = new Set(rows.map((row) => row.full_name));
    expect(acknowledged.filter((lead) => !stored.has(lead))).toEqual([]);
  } finally {
    await server?.stop();
    await admin.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    await admin.end();
  }
});

test("a scheduled backup restored with the CLI into an empty folder serves the same listings and photos", async () => {
  test.setTimeout(240_000);
  // One-second interval: the first look at the clock, a second after start, writes a backup.
  const original = await startServerProcess({ port: 3325, templateDir: TEMPLATE_DIR, env: { BACKUP_INTERVAL_HOURS: "0.0003", BACKUP_KEEP: "1" } });
  const restoredDir = path.resolve(".tmp/e2e-restored-3326");
  let restored: ServerProcess | undefined;
  try {
    // The server creates its files for its own user only (umask 077), DATA_DIR itself 0700.
    expect(fs.statSync(dataDirOf(3325)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDirOf(3325), "pglite.lock")).mode & 0o077).toBe(0);
    // Files that came with the folder (a copy made with another umask) were narrowed at start.
    expect(filesOpenToOthers(dataDirOf(3325))).toEqual([]);

    const backupsDir = path.join(dataDirOf(3325), "backups");
    const archive = await waitFor(
      () => (fs.existsSync(backupsDir) ? fs.readdirSync(backupsDir).find((file) => /^backup-.*\.tar\.gz$/.test(file)) : undefined),
      "a scheduled backup",
      60_000,
    );
    const archivePath = path.join(backupsDir, archive);
    expect(fs.statSync(archivePath).mode & 0o077).toBe(0);
    const archiveCopy = path.resolve(".tmp/e2e-backup-3325.tar.gz");
    fs.copyFileSync(archivePath, archiveCopy);

    // A health probe answers without a line in the log (noise), unless it fails.
    for (let probe = 0; probe < 3; probe++) {
      const health = await fetch(`${original.url}/healthz`);
      expect(health.status).toBe(200);
      expect(health.headers.get("cache-control")).toBe("no-store");
      expect(await health.json()).toEqual({ status: "ok" });
    }
    const listing = await (await fetch(`${original.url}/imoveis`)).text();
    // The request's log line is written once the answer has gone, and reaches us through a pipe:
    // a loaded machine delivers it after the body. The probes came first, so they would be in by then.
    await expect.poll(() => original.output()).toContain('"path":"/imoveis"');
    expect(original.output()).not.toContain('"path":"/healthz"');
    const photo = /\/media\/[A-Za-z0-9-]{8,64}\/\d+\.webp/.exec(listing)?.[0];
    expect(photo).toBeTruthy();
    const photoBytes = Buffer.from(await (await fetch(`${original.url}${photo}`)).arrayBuffer());
    const titlesBefore = listingTitles(listing);
    expect(titlesBefore.length).toBeGreaterThan(3);
    original.process.kill("SIGTERM");
    expect(await exited(original)).toBe(0);

    // Restore into a folder that does not exist yet.
    fs.rmSync(restoredDir, { recursive: true, force: true });
    const cli = spawnSync(process.execPath, ["--import", "tsx", "server/cli.ts", "restore", archiveCopy], {
      env: { ...process.env, DATA_DIR: restoredDir, DATABASE_URL: "" },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(cli.stderr).toBe("");
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain("banco de dados e");
    // Everything the CLI wrote is its user's only.
    expect(fs.statSync(restoredDir).mode & 0o777).toBe(0o700);
    expect(filesOpenToOthers(restoredDir)).toEqual([]);

    restored = await startServerProcess({ port: 3326, templateDir: restoredDir });
    const listingAfter = await (await fetch(`${restored.url}/imoveis`)).text();
    expect(listingTitles(listingAfter)).toEqual(titlesBefore);
    const photoAfter = await fetch(`${restored.url}${photo}`);
    expect(photoAfter.status).toBe(200);
    expect(Buffer.from(await photoAfter.arrayBuffer()).equals(photoBytes)).toBe(true);

    // While a server holds a folder, restore refuses and changes nothing.
    const refused = spawnSync(process.execPath, ["--import", "tsx", "server/cli.ts", "restore", archiveCopy, "--force"], {
      env: { ...process.env, DATA_DIR: dataDirOf(3326), DATABASE_URL: "" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`está em uso pelo processo ${restored.process.pid}`);
    fs.rmSync(archiveCopy, { force: true });
  } finally {
    await original.stop();
    await restored?.stop();
    fs.rmSync(restoredDir, { recursive: true, force: true });
  }
});

/** The listing cards on /imoveis, in page order: each property's id and title. */
function listingTitles(html: string): string[] {
  return [...html.matchAll(/<a[^>]*href="\/imoveis\/([0-9a-f-]{36})"[^>]*>([^<]{5,200})<\/a>/g)].map((match) => `${match[1]} ${match[2].trim()}`);
}

function filesOpenToOthers(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if ((fs.lstatSync(full).mode & 0o077) !== 0) found.push(full);
    if (entry.isDirectory()) found.push(...filesOpenToOthers(full));
  }
  return found;
}
