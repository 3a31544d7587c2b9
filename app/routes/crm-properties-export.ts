import { requireStaff } from "~/features/auth/guard.server";
import { propertiesExport } from "~/features/reports/exports.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-properties-export";

/**
 * /crm/imoveis/exportar?formato=csv|xlsx&busca=…[&periodo=…] — the properties list as searched.
 * Listings are not personal data (any staff member); the partner broker's name goes to admins only.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { api: true });
  // An export may read many rows: the long-work connections, whose limit never cuts it short.
  return propertiesExport((await getRuntime()).database.longDb, new URL(request.url), { includePartner: staff.role === "admin" });
}
