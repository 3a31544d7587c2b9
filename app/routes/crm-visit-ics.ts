import { requireStaff } from "~/features/auth/guard.server";
import { visitIcsResponse } from "~/features/visits/downloads.server";
import type { Route } from "./+types/crm-visit-ics";

/** One visit as an .ics file (staff only; scripts get 401/403 rather than a redirect). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { api: true });
  return visitIcsResponse(params.id);
}
