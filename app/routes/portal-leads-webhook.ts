import { PORTAL_LEAD_MESSAGES } from "~/features/portals/portal-lead-input";
import { type PortalLeadAnswer, receivePortalLead } from "~/features/portals/portal-leads.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/portal-leads-webhook";

/**
 * POST /api/portais/leads — the portals' lead webhook (ZAP Imóveis, VivaReal, OLX; issue 13).
 * No session: HTTP Basic with the user "vivareal" and the secret from /crm/configuracoes is the
 * key. The rules and the sources followed are in features/portals/portal-leads.server.ts.
 */
function toResponse(answer: PortalLeadAnswer): Response {
  return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store", ...answer.headers } });
}

export async function action({ request }: Route.ActionArgs) {
  const runtime = await getRuntime();
  const answer = await receivePortalLead({ db: runtime.db, publicUrl: runtime.env.publicUrl }, request);
  // The alert was enqueued with the lead: send it now rather than at the next poll.
  if (answer.created) {
    runtime.mail.wake();
    runtime.push.wake();
  }
  return toResponse(answer);
}

/** A GET (a browser, a curious visitor): this address only takes the portals' POSTs. */
export function loader() {
  return toResponse({ status: 405, body: { ok: false, error: PORTAL_LEAD_MESSAGES.method }, headers: { Allow: "POST" }, created: false });
}
