import { requireAdmin } from "~/features/auth/guard.server";
import { leadsExport } from "~/features/reports/exports.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-leads-export";

/**
 * /crm/leads/exportar?formato=csv|xlsx&status=…&busca=…[&periodo=…] — the leads list as filtered.
 * People's names, phones and e-mails: admins only, and every download is audited (issue 12).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, { api: true });
  // An export may read many rows: the long-work connections, whose limit never cuts it short.
  return leadsExport((await getRuntime()).database.longDb, { id: admin.id, email: admin.email, name: admin.name }, new URL(request.url));
}
