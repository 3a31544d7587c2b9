import fs from "node:fs";
import path from "node:path";
import { type DatabaseHandle, JOB_LOCKS, withJobLock } from "~/db/client.server";
import { errorFields, logger } from "~/lib/logger.server";
import { backupFileName, backupsDir, writeBackupArchive } from "./archive.server";

/**
 * Scheduled backups into DATA_DIR/backups, every BACKUP_INTERVAL_HOURS (0 = off), keeping the
 * newest BACKUP_KEEP. The clock is the newest archive's time, not the process's start: a server
 * restarted every few minutes does not back up every few minutes, and several processes on one
 * PostgreSQL (under an advisory lock) make one archive per interval between them.
 */

const log = logger("backup");

type Deps = {
  database: DatabaseHandle;
  env: { dataDir: string; BACKUP_INTERVAL_HOURS: number; BACKUP_KEEP: number };
  storage: { kind: "local" | "s3" };
};

const ARCHIVE = /^backup-.+\.tar\.gz$/;

/** The archives in DATA_DIR/backups, newest first. */
export function listBackups(dataDir: string): { file: string; mtimeMs: number }[] {
  const dir = backupsDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => ARCHIVE.test(name))
    .map((name) => ({ file: path.join(dir, name), mtimeMs: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.file.localeCompare(a.file));
}

/** Deletes all but the newest `keep` archives; returns the deleted files. */
export function pruneBackups(dataDir: string, keep: number): string[] {
  const old = listBackups(dataDir).slice(keep);
  for (const { file } of old) fs.rmSync(file, { force: true });
  return old.map(({ file }) => file);
}

/** Makes one archive now and prunes the old ones. Nothing to back up (PostgreSQL + S3): null. */
export async function makeBackup(deps: Deps): Promise<string | null> {
  if (deps.database.kind === "postgres" && deps.storage.kind === "s3") return null;
  const dir = backupsDir(deps.env.dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, backupFileName());
  await writeBackupArchive({ database: deps.database, dataDir: deps.env.dataDir, storageKind: deps.storage.kind }, file);
  pruneBackups(deps.env.dataDir, deps.env.BACKUP_KEEP);
  return file;
}

/** One round of the schedule: a backup when the newest is at least one interval old. */
export async function runScheduledBackup(deps: Deps, now = Date.now()): Promise<string | null> {
  const intervalMs = deps.env.BACKUP_INTERVAL_HOURS * 3600_000;
  const result = await withJobLock(deps.database, JOB_LOCKS.scheduledBackup, async () => {
    const newest = listBackups(deps.env.dataDir)[0];
    if (newest && now - newest.mtimeMs < intervalMs) return null;
    return makeBackup(deps);
  });
  return result ?? null;
}

export type BackupSchedule = {
  /** Stops the timer and waits for a backup in progress (the database must not close under it). */
  stop(): Promise<void>;
};

/** At most this long between two looks at the clock, so a long interval is still kept closely. */
const MAX_CHECK_MS = 10 * 60_000;

export function startBackupSchedule(deps: Deps): BackupSchedule {
  const intervalMs = deps.env.BACKUP_INTERVAL_HOURS * 3600_000;
  if (intervalMs <= 0) return { stop: async () => {} };
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = runScheduledBackup(deps)
      .then((file) => {
        if (file) log.info({ file: path.basename(file) }, "scheduled backup written");
      })
      .catch((error) => log.error({ ...errorFields(error) }, "scheduled backup failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, Math.min(intervalMs, MAX_CHECK_MS));
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
