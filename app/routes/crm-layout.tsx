import { Outlet } from "react-router";
import { requireStaff } from "~/features/auth/guard.server";
import { CrmNav } from "~/features/crm/components/crm-nav";
import { countNewLeads } from "~/features/dashboard/counters.server";
import { useNewLeadToast } from "~/features/leads/components/new-lead-toast";
import { latestSiteLead } from "~/features/leads/new-lead.server";
import { loadBrokerProfile } from "~/features/settings/settings.server";
import { getDb } from "~/runtime.server";
import type { Route } from "./+types/crm-layout";
import { useLiveUpdates } from "~/features/live/use-live-updates";

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  return {
    user: { name: staff.name, email: staff.email, role: staff.role },
    newLeads: await countNewLeads(await getDb()),
    // For the 'Novo lead' toast on any CRM page.
    latestSiteLead: await latestSiteLead(await getDb()),
    siteName: (await loadBrokerProfile(await getDb())).siteName,
  };
}

export const meta: Route.MetaFunction = () => [{ name: "robots", content: "noindex, nofollow" }];

export default function CrmLayout({ loaderData }: Route.ComponentProps) {
  // Every CRM page (dashboard counters, tables, the new-lead count) follows both tables (spec §2).
  useLiveUpdates("properties", "leads");
  useNewLeadToast(loaderData.latestSiteLead);
  return (
    <div className="min-h-screen bg-muted lg:flex">
      <CrmNav user={loaderData.user} newLeads={loaderData.newLeads} siteName={loaderData.siteName} />
      <main id="conteudo" className="min-w-0 flex-1 p-4 sm:p-6 lg:p-8">
        <Outlet />
      </main>
    </div>
  );
}
