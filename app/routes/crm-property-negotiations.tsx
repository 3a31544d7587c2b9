import { data, isRouteErrorResponse, Link } from "react-router";
import { eq } from "drizzle-orm";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { properties } from "~/db/schema";
import { requireStaff } from "~/features/auth/guard.server";
import { ProposalCard } from "~/features/deals/components/proposal-card";
import { canSeeCommissions, loadDealSettings } from "~/features/deals/deal-settings.server";
import { loadPropertyNegotiations } from "~/features/deals/negotiations.server";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { STATUS_LABELS } from "~/features/properties/labels";
import { brokerDay } from "~/lib/format";
import { isUuid } from "~/lib/ids";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-property-negotiations";

/**
 * /crm/imoveis/:id/negociacoes (issue 26): the listing's 'Negociações' — every proposal made for
 * it, with its lead, offers and deal. The forms post to each proposal's lead page, so the
 * negotiation is the same whichever page it is carried on from. New proposals start from a lead.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  const { db } = await getRuntime();
  if (!isUuid(params.id)) throw data("Imóvel não encontrado", { status: 404 });
  const [listing] = await db
    .select({ id: properties.id, codigo: properties.codigo, title: properties.title, status: properties.status })
    .from(properties)
    .where(eq(properties.id, params.id));
  if (!listing) throw data("Imóvel não encontrado", { status: 404 });
  const settings = await loadDealSettings(db);
  const seeCommissions = canSeeCommissions(staff.role, settings);
  return { listing, proposals: await loadPropertyNegotiations(db, listing.id, settings, seeCommissions), seeCommissions, today: brokerDay(new Date()) };
}

export const meta: Route.MetaFunction = ({ data: page }) => [{ title: page ? `Negociações — ${page.listing.codigo} | CRM` : "Imóvel não encontrado | CRM" }];

export default function CrmPropertyNegotiations({ loaderData }: Route.ComponentProps) {
  const { listing, proposals, seeCommissions, today } = loaderData;
  useLiveUpdates("leads");
  return (
    <div className="grid gap-6">
      <header className="grid gap-2">
        <Link to="/crm/imoveis" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <Icon name="arrow-left" className="size-4" /> Imóveis
        </Link>
        <h1 className="break-words text-2xl font-bold">Negociações</h1>
        <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          {listing.codigo} — {listing.title}
          <Badge variant={listing.status === "disponivel" ? "success" : "secondary"}>{STATUS_LABELS[listing.status]}</Badge>
        </p>
      </header>
      <Card className="p-4 sm:p-5">
        {proposals.length === 0 ? (
          <div className="grid gap-3 text-sm text-muted-foreground">
            <p>Nenhuma proposta para este imóvel ainda. Uma proposta é registrada na página do lead que a fez.</p>
            <Link to="/crm/leads" className={`${buttonClass("outline")} w-fit`}>
              <Icon name="users" /> Ir para os leads
            </Link>
          </div>
        ) : (
          <ol className="grid gap-4" aria-label="Propostas do imóvel">
            {proposals.map((proposal) => (
              <ProposalCard key={proposal.id} proposal={proposal} seeCommissions={seeCommissions} today={today} showLead />
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Card className="mx-auto grid max-w-lg gap-3 p-6 text-center">
      <h1 className="text-xl font-bold">{notFound ? "Imóvel não encontrado" : "Erro ao carregar as negociações"}</h1>
      <Link to="/crm/imoveis" className={`${buttonClass("outline")} mx-auto`}>
        <Icon name="arrow-left" /> Voltar para os imóveis
      </Link>
    </Card>
  );
}
