import { Outlet, data } from "react-router";
import { requireStaff } from "~/features/auth/guard.server";
import { CrmNav } from "~/features/crm/components/crm-nav";
import { countNewLeads } from "~/features/dashboard/counters.server";
import { useNewLeadToast } from "~/features/leads/components/new-lead-toast";
import { latestSiteLead } from "~/features/leads/new-lead.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { getDb } from "~/runtime.server";
import type { Route } from "./+types/crm-layout";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { OfflineBanner, useCrmServiceWorker } from "~/features/pwa/components/installable";
import { MANIFEST_URL } from "~/features/pwa/manifest";
import { OFFLINE_KEY_HEADER, offlineKey } from "~/features/pwa/offline-key.server";

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  return data(
    {
      user: { name: staff.name, email: staff.email, role: staff.role },
      newLeads: await countNewLeads(await getDb()),
      // For the 'Novo lead' toast on any CRM page.
      latestSiteLead: await latestSiteLead(await getDb()),
      siteName: (await loadBrokerProfile(await getDb())).siteName,
    },
    // Whose pages the service worker may save this one among (decision 029).
    { headers: { [OFFLINE_KEY_HEADER]: offlineKey(staff.id) } },
  );
}

// The layout's header reaches every CRM page (no CRM page names headers of its own).
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const key = loaderHeaders.get(OFFLINE_KEY_HEADER);
  return key ? [[OFFLINE_KEY_HEADER, key]] : [];
};

// The installable CRM's manifest: on CRM pages only, never on the public site (decision 029).
export const links: Route.LinksFunction = () => [{ rel: "manifest", href: MANIFEST_URL }];

export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex, nofollow" }];

export default function CrmLayout({ loaderData }: Route.ComponentProps) {
  // Every CRM page (dashboard counters, tables, the new-lead count) follows both tables (spec §2).
  useLiveUpdates("properties", "leads");
  useNewLeadToast(loaderData.latestSiteLead);
  useCrmServiceWorker();
  return (
    <div className="min-h-screen bg-muted lg:flex">
      <CrmNav user={loaderData.user} newLeads={loaderData.newLeads} siteName={loaderData.siteName} />
      <main id="conteudo" className="min-w-0 flex-1 p-4 sm:p-6 lg:p-8">
        <OfflineBanner />
        <Outlet />
      </main>
    </div>
  );
}
