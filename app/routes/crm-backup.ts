import { requireAdmin } from "~/features/auth/guard.server";
import { downloadBackup } from "~/features/backup/download.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-backup";

/**
 * /crm/backup — a backup archive (the embedded database and the photos, the same format as the
 * scheduled backups and `cli restore`), made by the server that holds the database. With
 * PostgreSQL, the database is pg_dump's job (see README): 501.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, { api: true });
  return downloadBackup(await getRuntime(), { id: admin.id, email: admin.email });
}
