import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { eq } from "drizzle-orm";
import pg from "pg";
import sharp from "sharp";
import * as tar from "tar";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { pgliteDir, pgliteLockFile } from "~/db/client.server";
import { properties, session, user_roles } from "~/db/schema";
import { BackupError, restoreBackupArchive } from "~/features/backup/archive.server";
import { listBackups, makeBackup, runScheduledBackup, startBackupSchedule } from "~/features/backup/schedule.server";
import { MAX_STREAMS_PER_ADDRESS } from "~/features/live/hub.server";
import { storeImage } from "~/features/media/pipeline.server";
import { DataDirLockedError, prepareDataDir } from "~/lib/data-dir-lock.server";
import { loader as eventsLoader } from "~/routes/api-events";
import { loader as backupLoader } from "~/routes/crm-backup";
import { loader as healthLoader } from "~/routes/healthz";
import { createSignedInUser, insertProperty, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Operations: the health probe, DATA_DIR's permissions, scheduled backups and restore, and the
 * live streams' per-address cap and role rechecks. (Graceful shutdown, crash safety, logs and a
 * restored folder served by a real server: tests/e2e/crash-and-restore.spec.ts.)
 */

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

function openToOthers(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if ((fs.lstatSync(full).mode & 0o077) !== 0) found.push(full);
    if (entry.isDirectory()) found.push(...openToOthers(full));
  }
  return found;
}

async function openStream(clientIp: string, cookie?: string) {
  const controller = new AbortController();
  const request = new Request("http://localhost:3000/api/events", { headers: cookie ? { Cookie: cookie } : {}, signal: controller.signal });
  const response = (await eventsLoader({ request, params: {}, context: { cspNonce: "n", clientIp } } as never)) as Response;
  let text = "";
  let ended = false;
  if (response.status === 200) {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      for (;;) {
        const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (chunk.done) break;
        text += decoder.decode(chunk.value);
      }
      ended = true;
    })();
  }
  return {
    response,
    text: () => text,
    ended: () => ended,
    close: () => controller.abort(),
  };
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function photoUrl(runtime: TestRuntime["runtime"]): Promise<string> {
  const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#2a6" } }).jpeg().toBuffer();
  return (await storeImage(runtime, jpeg)).url;
}

describe("DATA_DIR permissions", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it("creates DATA_DIR with mode 0700 and narrows an existing, world-readable one", () => {
    const fresh = path.resolve(".tmp/test-runs/perm-fresh");
    const loose = path.resolve(".tmp/test-runs/perm-loose");
    dirs.push(fresh, loose);
    fs.rmSync(fresh, { recursive: true, force: true });
    prepareDataDir(fresh);
    expect(modeOf(fresh)).toBe(0o700);
    fs.mkdirSync(loose, { recursive: true });
    fs.chmodSync(loose, 0o777);
    prepareDataDir(loose);
    expect(modeOf(loose)).toBe(0o700);
  });
});

describe.each(DATABASE_KINDS)("operations on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;
  beforeAll(async () => {
    test = await startTestRuntime(kind, { BACKUP_KEEP: "2", BACKUP_INTERVAL_HOURS: "1" });
    staff = await createSignedInUser(test.runtime, "corretor");
  });
  afterAll(async () => {
    vi.useRealTimers();
    await test.stop();
  });

  it("starts with its data folder, and everything in it, readable by its own user only", () => {
    expect(modeOf(test.dataDir)).toBe(0o700);
    // The database files were copied from a template with this process's looser umask.
    expect(openToOthers(test.dataDir)).toEqual([]);
  });

  it("GET /healthz answers 200 while the database answers, with no-store and no session", async () => {
    const response = (await healthLoader()) as Response;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  describe("live streams", () => {
    it(`caps open streams at ${MAX_STREAMS_PER_ADDRESS} per client address (429 beyond), counting each address apart`, async () => {
      const streams = [];
      for (let index = 0; index < MAX_STREAMS_PER_ADDRESS; index++) streams.push(await openStream("198.51.100.7"));
      expect(streams.every((stream) => stream.response.status === 200)).toBe(true);
      const extra = await openStream("198.51.100.7");
      expect(extra.response.status).toBe(429);
      expect(await extra.response.text()).toContain("Muitas conexões");
      const other = await openStream("198.51.100.8");
      expect(other.response.status).toBe(200);

      // A stream that ends gives its place back.
      streams[0].close();
      await until(() => test.runtime.live.countFor("198.51.100.7") === MAX_STREAMS_PER_ADDRESS - 1, "the place to be released");
      const again = await openStream("198.51.100.7");
      expect(again.response.status).toBe(200);
      for (const stream of [...streams, other, again]) stream.close();
      await until(() => test.runtime.live.countFor("198.51.100.7") === 0, "every place to be released");
    });

    it("closes a staff stream when the role is removed or the session ends or idles out, and keeps the others", async () => {
      const removed = await createSignedInUser(test.runtime, "corretor");
      const signedOut = await createSignedInUser(test.runtime, "admin");
      const idle = await createSignedInUser(test.runtime, "corretor");
      const streams = {
        idle: await openStream("198.51.100.20", idle.cookie),
        removed: await openStream("198.51.100.20", removed.cookie),
        signedOut: await openStream("198.51.100.20", signedOut.cookie),
        kept: await openStream("198.51.100.20", staff.cookie),
        visitor: await openStream("198.51.100.20"),
      };
      await until(() => Object.values(streams).every((stream) => /event: ready/.test(stream.text())), "the streams to open");
      expect(streams.removed.text()).toContain('"staff":true');

      await test.runtime.db.delete(user_roles).where(eq(user_roles.user_id, removed.id));
      await test.runtime.db.delete(session).where(eq(session.userId, signedOut.id));
      // Nine hours without a request: past the 8-hour idle end (an open tab is not activity).
      await test.runtime.db.update(session).set({ updatedAt: new Date(Date.now() - 9 * 3600_000) }).where(eq(session.userId, idle.id));
      // What the 25-second heartbeat does (its timer is covered by the hub's unit tests).
      await test.runtime.live.recheck();

      await until(() => streams.removed.ended() && streams.signedOut.ended() && streams.idle.ended(), "the three streams to end");
      expect(streams.kept.ended()).toBe(false);
      expect(streams.visitor.ended()).toBe(false);
      streams.kept.close();
      streams.visitor.close();
    });
  });

  describe("backups", () => {
    it("writes an archive with the database (embedded) and the photos, and keeps the newest BACKUP_KEEP", async () => {
      const url = await photoUrl(test.runtime);
      await insertProperty(test.runtime, { codigo: `BKP-${kind.toUpperCase()}`, images: [url] });

      // Two older archives already there (made an hour and two hours ago).
      const backups = path.join(test.dataDir, "backups");
      fs.mkdirSync(backups, { recursive: true });
      const older = [2, 1].map((hours) => {
        const file = path.join(backups, `backup-older-${hours}h.tar.gz`);
        fs.writeFileSync(file, "");
        const time = new Date(Date.now() - hours * 3600_000);
        fs.utimesSync(file, time, time);
        return file;
      });
      const made = await makeBackup(test.runtime);
      const kept = listBackups(test.dataDir).map((backup) => backup.file);
      expect(kept).toEqual([made, older[1]]);
      expect(fs.existsSync(older[0])).toBe(false);
      expect(modeOf(made!) & 0o077).toBe(0);

      const entries: string[] = [];
      await tar.list({ file: kept[0], onReadEntry: (entry) => entries.push(entry.path) });
      expect(entries).toContain("manifest.json");
      const mediaFile = url.split("/media/")[1];
      expect(entries.some((entry) => entry.startsWith("uploads/") && entry.includes(mediaFile.split("/")[0]))).toBe(true);
      expect(entries.includes("database.tar.gz")).toBe(kind === "pglite");
    });

    it("runs on schedule only when the newest archive is an interval old, in one process at a time", async () => {
      const before = listBackups(test.dataDir);
      // The newest is seconds old with a one-hour interval: nothing to do.
      expect(await runScheduledBackup(test.runtime)).toBeNull();
      // An hour later it is due.
      const due = await runScheduledBackup(test.runtime, Date.now() + 3600_000);
      expect(due).toBeTruthy();
      expect(listBackups(test.dataDir)[0].file).toBe(due);
      expect(listBackups(test.dataDir)).toHaveLength(Math.min(before.length + 1, 2));

      if (kind === "postgres") {
        // Another process holding the job's lock: this one skips the round.
        const other = new pg.Client({ connectionString: test.runtime.env.DATABASE_URL });
        await other.connect();
        await other.query("select pg_advisory_lock(72706180)");
        expect(await runScheduledBackup(test.runtime, Date.now() + 7200_000)).toBeNull();
        await other.query("select pg_advisory_unlock(72706180)");
        await other.end();
      }
    });

    it("starts the schedule's timer, and stopping waits for a backup in progress", async () => {
      const newestBefore = listBackups(test.dataDir)[0]?.file;
      // Make the newest archive look old rather than sleeping through an interval.
      const old = new Date(Date.now() - 3600_000);
      for (const backup of listBackups(test.dataDir)) fs.utimesSync(backup.file, old, old);
      vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
      try {
        const schedule = startBackupSchedule({ ...test.runtime, env: { ...test.runtime.env, BACKUP_INTERVAL_HOURS: 0.001 } });
        vi.advanceTimersByTime(3600);
        await schedule.stop();
      } finally {
        vi.useRealTimers();
      }
      const newest = listBackups(test.dataDir)[0].file;
      expect(newest).not.toBe(newestBefore);
    });

    it("a backup restored into an empty folder has the same listings and photos", async () => {
      const [backup] = listBackups(test.dataDir);
      const target = path.resolve(`.tmp/test-runs/restore-${kind}-${Date.now()}`);
      try {
        const result = await restoreBackupArchive({ archive: backup.file, dataDir: target, usingPostgres: kind === "postgres" });
        expect(result.photos).toBeGreaterThan(0);
        expect(modeOf(target)).toBe(0o700);
        expect(openToOthers(target)).toEqual([]);
        const [row] = await test.runtime.db.select().from(properties).where(eq(properties.codigo, `BKP-${kind.toUpperCase()}`));
        const key = row.images[0].split("/media/")[1];
        expect(fs.readFileSync(path.join(target, "uploads", key.split("/")[0], "800.webp")).length).toBeGreaterThan(0);
        expect(result.database).toBe(kind === "pglite");
        if (kind === "pglite") {
          const restored = await PGlite.create(pgliteDir(target));
          const { rows } = await restored.query<{ codigo: string; images: string[] }>("select codigo, images from properties order by codigo");
          await restored.close();
          const original = await test.runtime.db.select({ codigo: properties.codigo, images: properties.images }).from(properties).orderBy(properties.codigo);
          expect(rows).toEqual(original);
        }
      } finally {
        fs.rmSync(target, { recursive: true, force: true });
      }
    });

    it("the CRM's download is the same archive: it restores too (embedded database)", async () => {
      if (kind !== "pglite") return; // PostgreSQL: pg_dump (501, see the authorisation matrix)
      const admin = await createSignedInUser(test.runtime, "admin");
      const response = (await backupLoader({ request: new Request("http://localhost:3000/crm/backup", { headers: { Cookie: admin.cookie } }), params: {}, context: {} } as never)) as Response;
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Disposition")).toMatch(/attachment; filename="backup-.+\.tar\.gz"/);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      const target = path.resolve(`.tmp/test-runs/restore-download-${Date.now()}`);
      const file = `${target}.tar.gz`;
      try {
        fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
        const result = await restoreBackupArchive({ archive: file, dataDir: target });
        expect(result.database).toBe(true);
        expect(result.photos).toBeGreaterThan(0);
        // Nothing left behind in the backups folder by the download.
        expect(fs.readdirSync(path.join(test.dataDir, "backups")).filter((name) => name.startsWith("."))).toEqual([]);
      } finally {
        fs.rmSync(target, { recursive: true, force: true });
        fs.rmSync(file, { force: true });
      }
    });

    it("restore refuses a folder that has data (unless --force, which keeps the old data aside), a held folder, and a file that is no backup", async () => {
      const [backup] = listBackups(test.dataDir);
      const target = path.resolve(`.tmp/test-runs/restore-refuse-${kind}-${Date.now()}`);
      const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
      try {
        // A folder with a database and photos in it already.
        for (const dir of ["pglite", "uploads/some-photo"]) fs.mkdirSync(path.join(target, dir), { recursive: true });
        fs.writeFileSync(path.join(target, "pglite", "PG_VERSION"), "18");
        fs.writeFileSync(path.join(target, "uploads/some-photo/800.webp"), "old photo");
        await expect(restoreBackupArchive({ archive: backup.file, dataDir: target, usingPostgres: kind === "postgres" })).rejects.toThrow(/já tem .*--force/);
        const forced = await restoreBackupArchive({ archive: backup.file, dataDir: target, force: true, usingPostgres: kind === "postgres" });
        expect(forced.movedAside && fs.readdirSync(forced.movedAside).length).toBeGreaterThan(0);

        fs.writeFileSync(pgliteLockFile(target), String(holder.pid));
        await expect(restoreBackupArchive({ archive: backup.file, dataDir: target, force: true })).rejects.toThrow(DataDirLockedError);
        fs.rmSync(pgliteLockFile(target));

        const junk = path.join(target, "junk.tar.gz");
        fs.writeFileSync(junk, "not an archive");
        await expect(restoreBackupArchive({ archive: junk, dataDir: target, force: true })).rejects.toThrow(BackupError);
        if (kind === "pglite") {
          await expect(restoreBackupArchive({ archive: backup.file, dataDir: target, force: true, usingPostgres: true })).rejects.toThrow(/pg_restore/);
        }
      } finally {
        holder.kill();
        fs.rmSync(target, { recursive: true, force: true });
      }
    });
  });
});

describe.each(DATABASE_KINDS)("health probe when the database stops answering, on %s", (kind) => {
  let test: TestRuntime;
  beforeAll(async () => {
    test = await startTestRuntime(kind);
  });
  afterAll(async () => {
    await test.stop();
  });

  const probe = async () => (await healthLoader()) as Response;

  it("answers 503", async () => {
    expect((await probe()).status).toBe(200);
    if (kind === "pglite") {
      // The embedded database closed under the server (what a crashed PGlite looks like).
      await test.runtime.database.close();
      const response = await probe();
      expect(response.status).toBe(503);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
    } else {
      // The PostgreSQL server refuses this database and drops its connections, as in a failover.
      const url = new URL(test.runtime.env.DATABASE_URL!);
      const name = url.pathname.slice(1);
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`alter database ${pg.escapeIdentifier(name)} allow_connections false`);
        await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [name]);
        expect((await probe()).status).toBe(503);
        await admin.query(`alter database ${pg.escapeIdentifier(name)} allow_connections true`);
        // And back once the database answers again.
        let status = 0;
        for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
          status = (await probe()).status;
          if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(status).toBe(200);
      } finally {
        await admin.query(`alter database ${pg.escapeIdentifier(name)} allow_connections true`).catch(() => {});
        await admin.end();
      }
    }
  });
});
