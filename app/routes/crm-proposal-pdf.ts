import { recordAudit } from "~/features/audit/audit.server";
import { requireStaff } from "~/features/auth/guard.server";
import { proposalPdfResponse } from "~/features/deals/proposal-pdf.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-proposal-pdf";

/**
 * GET /crm/propostas/:id/proposta.pdf — the printable proposal (issue 24), for staff: both
 * parties' names, the listing, the values and the broker's CRECI. A download of personal data,
 * so it is audited (by id, never the values).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { api: true });
  const { db } = await getRuntime();
  const response = await proposalPdfResponse(db, await loadBrokerProfile(db), params.id);
  if (response.ok) await recordAudit(db, { actor: { id: staff.id, email: staff.email, name: staff.name }, action: "proposal.pdf", entity: "proposal", entityId: params.id });
  return response;
}
