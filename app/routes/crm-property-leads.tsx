import { data, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { requireStaff } from "~/features/auth/guard.server";
import { LEAD_STATUS_LABELS } from "~/features/leads/labels";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { PropertyLeadItem } from "~/features/matching/components/property-leads";
import { loadPropertyLeads, propertyLeadsAction } from "~/features/matching/property-leads.server";
import { readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-property-leads";

/** Issue 23: the open leads whose search profile this listing fits, best first (features/matching). */

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request);
  const { db, env } = await getRuntime();
  const page = await loadPropertyLeads(db, env, params.id);
  if (!page) throw data("Imóvel não encontrado", { status: 404 });
  return page;
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const { db, env } = await getRuntime();
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  return propertyLeadsAction(db, env, { id: staff.id, email: staff.email, name: staff.name }, params.id, body);
}

export const meta: Route.MetaFunction = ({ data: page }) => [{ title: page ? `Leads compatíveis — ${page.listing.codigo} | CRM` : "Imóvel não encontrado | CRM" }];

export default function CrmPropertyLeads({ loaderData }: Route.ComponentProps) {
  const { listing, leads } = loaderData;
  useLiveUpdates("leads");
  return (
    <div className="grid gap-6">
      <header className="grid gap-2">
        <Link to="/crm/imoveis" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <Icon name="arrow-left" className="size-4" /> Imóveis
        </Link>
        <h1 className="break-words text-2xl font-bold">Leads compatíveis</h1>
        <p className="text-sm text-muted-foreground">
          {listing.codigo} — {listing.title}
          {listing.status !== "disponivel" && <Badge variant="warning" className="ml-2">Indisponível: não entra nos matches</Badge>}
        </p>
      </header>
      <Card className="p-4 sm:p-5">
        {leads.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhum lead em aberto tem um perfil de busca que este imóvel atenda.</p>
        ) : (
          <ol className="grid gap-4" aria-label="Leads compatíveis">
            {leads.map((lead) => (
              <PropertyLeadItem key={lead.leadId} lead={lead} propertyId={listing.id} statusLabel={LEAD_STATUS_LABELS[lead.status]} />
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}
