import { loadBrokerProfile } from "~/features/settings/settings.server";
import { appManifest } from "~/features/pwa/manifest";
import { getDb } from "~/runtime.server";

/**
 * The installable CRM's web manifest (issue 25, decision 029), linked from CRM pages only. Public
 * like any manifest (a browser fetches it without cookies): it names the site and nothing else.
 * The site name is the one saved in /crm/configuracoes, so it is drawn per request and kept an
 * hour by browsers.
 */
export async function loader() {
  const { siteName } = await loadBrokerProfile(await getDb());
  return new Response(JSON.stringify(appManifest(siteName)), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
