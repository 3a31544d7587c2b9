import { vrsyncFeedResponse } from "~/features/portals/vrsync-feed.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/portal-feed";

/**
 * GET /feeds/vrsync/<token>.xml — the listings feed the portals read (ZAP Imóveis, VivaReal, OLX;
 * issue 13). No session: the token in the file name is the key (set under 'Portais' in
 * /crm/configuracoes). What goes in and how: features/portals/vrsync-feed.server.ts.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const runtime = await getRuntime();
  return vrsyncFeedResponse({ db: runtime.db, publicUrl: runtime.env.publicUrl }, request, params.file);
}
