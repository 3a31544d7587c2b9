import { recordAudit } from "~/features/audit/audit.server";
import { requireAdmin } from "~/features/auth/guard.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-backup";

/**
 * /crm/backup — a copy of the embedded database, made by the server that holds it (nothing else
 * may open its folder while it runs). With PostgreSQL, backups are pg_dump's job (see README).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, { api: true });
  const { database } = await getRuntime();
  if (database.kind !== "pglite" || !database.pglite) {
    return new Response("Com PostgreSQL, faça a cópia com pg_dump (veja o README).", { status: 501 });
  }
  const dump = await database.pglite.dumpDataDir("gzip");
  await recordAudit(database.db, { actor: { id: admin.id, email: admin.email }, action: "backup.download", entity: "backup" });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return new Response(dump.stream(), {
    headers: {
      "Content-Type": "application/gzip",
      "Content-Disposition": `attachment; filename="backup-${stamp}.tar.gz"`,
      "Cache-Control": "no-store",
    },
  });
}
