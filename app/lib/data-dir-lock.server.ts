import fs from "node:fs";
import path from "node:path";

/**
 * PGlite does not stop a second process from opening the same folder, and two writers corrupt it.
 * So whoever opens the embedded database first writes its pid into a lock file beside it; a live
 * holder makes everyone else refuse, a stale one (the process died) is taken over.
 */

/**
 * Creates DATA_DIR readable by this user only (0700), and narrows an existing one: it holds the
 * database files, the photos, backups and the auth secret. (Files inside inherit the process's
 * umask; server/main.ts and the CLI set 077 before anything is written.)
 */
export function prepareDataDir(dataDir: string, options: { narrowContents?: boolean } = {}): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
  if (options.narrowContents) narrowPermissions(dataDir);
}

/**
 * Takes group and world access away from everything under `dir`. PGlite sets the modes its own
 * way when it creates or unpacks a database (world-writable files were found), and folders made
 * by earlier versions kept theirs; a walk at start-up costs milliseconds.
 */
export function narrowPermissions(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const full = path.join(dir, entry.name);
    const { mode } = fs.lstatSync(full);
    if (mode & 0o077) fs.chmodSync(full, mode & 0o7700);
    if (entry.isDirectory()) narrowPermissions(full);
  }
}

export class DataDirLockedError extends Error {
  constructor(
    public readonly lockFile: string,
    public readonly holderPid: number,
  ) {
    super(
      `O banco de dados embutido em ${path.dirname(lockFile)} está em uso pelo processo ${holderPid} ` +
        `(provavelmente o servidor). Pare o servidor antes, ou use DATABASE_URL com PostgreSQL.`,
    );
    this.name = "DataDirLockedError";
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — still alive.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Returns the pid of a live process holding the lock, or undefined. */
export function lockHolder(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockFile, "utf8").trim(), 10);
    return pid !== process.pid && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Locks this process holds. Whatever way it exits (a stop that outlived its deadline, an
 * uncaught error), the database goes with it, so its locks go too instead of staying behind
 * for the next start to take over (issue 21).
 */
const held = new Set<string>();
let releaseOnExit = false;

function hold(lockFile: string): () => void {
  held.add(lockFile);
  if (!releaseOnExit) {
    releaseOnExit = true;
    process.once("exit", () => {
      for (const file of held) releaseLock(file);
    });
  }
  return () => {
    held.delete(lockFile);
    releaseLock(lockFile);
  };
}

/** Takes the lock or throws DataDirLockedError. Returns a function that releases it. */
export function acquireLock(lockFile: string): () => void {
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // "wx" fails when the file exists: creating it is the atomic part of taking the lock.
      fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      return hold(lockFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const content = safeRead(lockFile);
      const pid = Number.parseInt(content, 10);
      if (pid === process.pid) return hold(lockFile);
      if (isAlive(pid)) throw new DataDirLockedError(lockFile, pid);
      // Stale: the holder died without cleaning up. Remove and try again.
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Não foi possível obter o arquivo de trava ${lockFile}`);
}

function releaseLock(lockFile: string) {
  if (safeRead(lockFile) === String(process.pid)) fs.rmSync(lockFile, { force: true });
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
}
