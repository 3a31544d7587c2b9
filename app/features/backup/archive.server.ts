import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import * as tar from "tar";
import { type DatabaseHandle, pgliteDir, pgliteLockFile } from "~/db/client.server";
import { acquireLock, narrowPermissions, prepareDataDir } from "~/lib/data-dir-lock.server";

/**
 * One archive format for scheduled backups, the CRM's download and `cli restore`: a gzipped tar
 * holding
 *
 *   manifest.json     what is inside (below)
 *   database.tar.gz   the embedded database's folder (PGlite dumpDataDir), when there is one
 *   uploads/…         the photos on the local disk (DATA_DIR/uploads), when they live there
 *
 * With PostgreSQL the database is pg_dump's job (README) and the archive holds the photos only;
 * with S3 storage the photos are the bucket's job and the archive says so.
 */

export const BACKUP_FORMAT = "imobiliaria-backup";
export const BACKUP_VERSION = 1;

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** "pglite": database.tar.gz is inside; "postgres": not inside (pg_dump). */
  database: "pglite" | "postgres";
  /** "local": uploads/ is inside; "s3": the photos live in the bucket, not in the archive. */
  photos: "local" | "s3";
};

const DATABASE_ENTRY = "database.tar.gz";

export const backupsDir = (dataDir: string) => path.join(dataDir, "backups");
export const uploadsDir = (dataDir: string) => path.join(dataDir, "uploads");

/** backup-2026-11-23T15-04-05-123Z.tar.gz: sorts by time, safe in any file system. */
export function backupFileName(now = new Date()): string {
  return `backup-${now.toISOString().replace(/[:.]/g, "-")}.tar.gz`;
}

export class BackupError extends Error {}

type Source = { database: Pick<DatabaseHandle, "kind" | "pglite">; dataDir: string; storageKind: "local" | "s3" };

/**
 * Writes a backup archive to `outFile` (through a temporary name, so a reader never sees half an
 * archive). Photos are hard-linked into a staging folder first: a consistent set even while
 * uploads go on (a photo file never changes once written), and no copy of the bytes.
 */
export async function writeBackupArchive(source: Source, outFile: string): Promise<BackupManifest> {
  const staging = path.join(path.dirname(outFile), `.staging-${crypto.randomBytes(6).toString("hex")}`);
  fs.mkdirSync(staging, { recursive: true, mode: 0o700 });
  const partial = `${outFile}.partial`;
  try {
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      database: source.database.kind,
      photos: source.storageKind,
    };
    const entries = ["manifest.json"];
    if (source.database.kind === "pglite") {
      const pglite = source.database.pglite!;
      // A checkpoint first: the copy then needs little WAL replay when it is opened again.
      await pglite.exec("checkpoint").catch(() => {});
      // Compressed by PGlite: ~40 MB of database files become a few MB to hold in memory.
      const dump = await pglite.dumpDataDir("gzip");
      fs.writeFileSync(path.join(staging, DATABASE_ENTRY), new Uint8Array(await dump.arrayBuffer()));
      entries.push(DATABASE_ENTRY);
    }
    if (source.storageKind === "local") {
      linkTree(uploadsDir(source.dataDir), path.join(staging, "uploads"));
      entries.push("uploads");
    }
    fs.writeFileSync(path.join(staging, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, entries);
    // It holds everything the database holds: for the server's user only, whatever the umask.
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, outFile);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
  }
}

/** Mirrors `from` into `to` with hard links (a copy when the two are on different disks). */
function linkTree(from: string, to: string) {
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(from)) return;
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    // Half-written uploads (*.tmp) are not photos yet.
    else if (entry.isFile() && !entry.name.endsWith(".tmp")) {
      try {
        fs.linkSync(source, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EXDEV" && (error as NodeJS.ErrnoException).code !== "EPERM") throw error;
        fs.copyFileSync(source, target);
      }
    }
  }
}

function isEmptyDir(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

export type RestoreOptions = {
  archive: string;
  dataDir: string;
  /** Restore over an existing database or photos (moved aside into DATA_DIR/before-restore-…). */
  force?: boolean;
  /** DATABASE_URL is set: the database is PostgreSQL's (pg_restore); only photos come back. */
  usingPostgres?: boolean;
};

export type RestoreResult = { manifest: BackupManifest; database: boolean; photos: number; movedAside?: string };

/**
 * Brings a backup archive back into DATA_DIR: the embedded database (when the archive has one)
 * and the photos. Holds the data folder's lock throughout, so it refuses while a server runs on
 * it, and refuses a folder that already has a database or photos unless `force`.
 */
export async function restoreBackupArchive(options: RestoreOptions): Promise<RestoreResult> {
  const { dataDir } = options;
  if (!fs.existsSync(options.archive) || !fs.statSync(options.archive).isFile()) {
    throw new BackupError(`Arquivo não encontrado: ${options.archive}`);
  }
  prepareDataDir(dataDir);
  // Throws DataDirLockedError (naming the server's pid) while a server holds the folder.
  const release = acquireLock(pgliteLockFile(dataDir));
  const work = path.join(dataDir, `.restore-${crypto.randomBytes(6).toString("hex")}`);
  try {
    fs.mkdirSync(work, { mode: 0o700 });
    try {
      await tar.extract({
        file: options.archive,
        cwd: work,
        // Files and folders only: no links that could point outside DATA_DIR.
        filter: (_path, entry) => "type" in entry && (entry.type === "File" || entry.type === "Directory"),
        strict: true,
      });
    } catch {
      throw new BackupError("O arquivo não é uma cópia de segurança válida (tar.gz ilegível).");
    }
    const manifest = readManifest(work);
    const hasDatabase = manifest.database === "pglite" && fs.existsSync(path.join(work, DATABASE_ENTRY));
    const hasPhotos = manifest.photos === "local" && fs.existsSync(path.join(work, "uploads"));
    if (hasDatabase && options.usingPostgres) {
      throw new BackupError(
        "Esta cópia contém o banco embutido, mas DATABASE_URL está definida. Restaure sem DATABASE_URL, " +
          "ou use pg_dump/pg_restore para o PostgreSQL (veja o README).",
      );
    }

    const occupied = [
      ...(hasDatabase && !isEmptyDir(pgliteDir(dataDir)) ? [pgliteDir(dataDir)] : []),
      ...(hasPhotos && !isEmptyDir(uploadsDir(dataDir)) ? [uploadsDir(dataDir)] : []),
    ];
    let movedAside: string | undefined;
    if (occupied.length > 0) {
      if (!options.force) {
        throw new BackupError(
          `A pasta de dados ${dataDir} já tem ${occupied.map((dir) => path.basename(dir)).join(" e ")}. ` +
            "Use --force para substituir (o conteúdo atual é guardado em DATA_DIR/before-restore-…).",
        );
      }
      movedAside = path.join(dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`);
      fs.mkdirSync(movedAside, { mode: 0o700 });
      for (const dir of occupied) fs.renameSync(dir, path.join(movedAside, path.basename(dir)));
    }

    if (hasDatabase) {
      // Let PGlite unpack its own dump into the (empty) folder, then close it cleanly.
      const target = pgliteDir(dataDir);
      fs.rmSync(target, { recursive: true, force: true });
      fs.mkdirSync(target, { mode: 0o700 });
      const dump = new Blob([new Uint8Array(fs.readFileSync(path.join(work, DATABASE_ENTRY)))], { type: "application/x-gzip" });
      const pglite = await PGlite.create(target, { loadDataDir: dump, extensions: { unaccent, pg_trgm } });
      await pglite.query("select 1");
      await pglite.close();
    }
    let photos = 0;
    if (hasPhotos) {
      fs.rmSync(uploadsDir(dataDir), { recursive: true, force: true });
      fs.renameSync(path.join(work, "uploads"), uploadsDir(dataDir));
      photos = countFiles(uploadsDir(dataDir));
    }
    // PGlite unpacks with the modes inside its dump, whatever the umask.
    narrowPermissions(dataDir);
    return { manifest, database: hasDatabase, photos, movedAside };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    release();
  }
}

function readManifest(folder: string): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(folder, "manifest.json"), "utf8"));
  } catch {
    throw new BackupError("O arquivo não é uma cópia de segurança deste sistema (manifest.json ausente).");
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION) {
    throw new BackupError(`Formato de cópia desconhecido (${String(manifest.format)} versão ${String(manifest.version)}).`);
  }
  return manifest as BackupManifest;
}

function countFiles(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    total += entry.isDirectory() ? countFiles(path.join(dir, entry.name)) : 1;
  }
  return total;
}
