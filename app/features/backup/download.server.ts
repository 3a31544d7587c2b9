import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { DatabaseHandle } from "~/db/client.server";
import { type AuditActor, recordAudit } from "~/features/audit/audit.server";
import { backupFileName, backupsDir, writeBackupArchive } from "./archive.server";

type Deps = { database: DatabaseHandle; env: { dataDir: string }; storage: { kind: "local" | "s3" } };

/**
 * The CRM's download: an archive written to a temporary file, opened, and unlinked at once, so
 * the file disappears even if the browser never finishes reading it.
 */
export async function downloadBackup(deps: Deps, actor: AuditActor): Promise<Response> {
  if (deps.database.kind !== "pglite") {
    return new Response("Com PostgreSQL, faça a cópia do banco com pg_dump (veja o README).", {
      status: 501,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const dir = backupsDir(deps.env.dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = path.join(dir, `.download-${crypto.randomBytes(6).toString("hex")}.tar.gz`);
  let handle: fs.promises.FileHandle;
  try {
    await writeBackupArchive({ database: deps.database, dataDir: deps.env.dataDir, storageKind: deps.storage.kind }, temporary);
    handle = await fs.promises.open(temporary, "r");
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  const { size } = await handle.stat();
  await recordAudit(deps.database.db, { actor, action: "backup.download", entity: "backup" });
  const body = Readable.toWeb(handle.createReadStream()) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Length": String(size),
      "Content-Disposition": `attachment; filename="${backupFileName()}"`,
      "Cache-Control": "no-store",
    },
  });
}
