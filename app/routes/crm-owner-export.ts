import { requireAdmin } from "~/features/auth/guard.server";
import { exportOwnerResponse } from "~/features/owners/export.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-owner-export";

/** /crm/proprietarios/:id/exportar — everything held about an owner, in Portuguese (LGPD; admins only). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, { api: true });
  return exportOwnerResponse((await getRuntime()).db, { id: admin.id, email: admin.email, name: admin.name }, params.id);
}
