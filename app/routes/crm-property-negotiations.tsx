import { useState } from "react";
import { data, isRouteErrorResponse, Link } from "react-router";
import { desc, eq, inArray, sql } from "drizzle-orm";
import { Badge } from "~/components/ui/badge";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { leads, properties } from "~/db/schema";
import { Button } from "~/components/ui/button";
import { negotiationAction } from "~/features/deals/actions.server";
import { LISTING_MESSAGES, NewProposalForm } from "~/features/deals/components/negotiations-section";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
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
 * /crm/imoveis/:id/negociacoes (issue 24): the listing's 'Negociações' — every proposal made for
 * it, with its lead, offers and deal. The forms post to each proposal's lead page, so the
 * negotiation is the same whichever page it is carried on from; a new proposal is posted here,
 * with the lead chosen from the open leads (those who came through this listing first).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  const { db } = await getRuntime();
  if (!isUuid(params.id)) throw data("Imóvel não encontrado", { status: 404 });
  const [listing] = await db
    .select({ id: properties.id, codigo: properties.codigo, title: properties.title, status: properties.status, purpose: properties.purpose })
    .from(properties)
    .where(eq(properties.id, params.id));
  if (!listing) throw data("Imóvel não encontrado", { status: 404 });
  const settings = await loadDealSettings(db);
  const seeCommissions = canSeeCommissions(staff.role, settings);
  const leadOptions = await db
    .select({ id: leads.id, full_name: leads.full_name })
    .from(leads)
    .where(inArray(leads.status, ["novo", "em_atendimento"]))
    .orderBy(sql`${leads.property_id} is not distinct from ${listing.id} desc`, desc(leads.created_at))
    .limit(200);
  return { listing, leadOptions, proposals: await loadPropertyNegotiations(db, listing.id, settings, seeCommissions), seeCommissions, today: brokerDay(new Date()) };
}

/** A new proposal for this listing (the other intents post to the lead's page). */
export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const { db } = await getRuntime();
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  if (asString(body.intent) !== "proposal_create") return data({ ok: false, message: "Ação desconhecida" }, { status: 400 });
  if (!isUuid(params.id)) return data({ ok: false, message: "Imóvel não encontrado" }, { status: 404 });
  const [listing] = await db.select({ codigo: properties.codigo }).from(properties).where(eq(properties.id, params.id));
  if (!listing) return data({ ok: false, message: "Imóvel não encontrado" }, { status: 404 });
  const leadId = asString(body.lead_id)?.trim() ?? "";
  if (!isUuid(leadId)) return data({ ok: false, message: LISTING_MESSAGES.leadMissing }, { status: 400 });
  // The listing is this page's, whatever code the post carries.
  return negotiationAction(db, staff, leadId, { ...body, property_codigo: listing.codigo });
}

export const meta: Route.MetaFunction = ({ data: page }) => [{ title: page ? `Negociações — ${page.listing.codigo} | CRM` : "Imóvel não encontrado | CRM" }];

export default function CrmPropertyNegotiations({ loaderData }: Route.ComponentProps) {
  const { listing, proposals, seeCommissions, today, leadOptions } = loaderData;
  useLiveUpdates("leads");
  const [creating, setCreating] = useState(false);
  const closed = listing.status === "vendido" || listing.status === "alugado";
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
      <Card className="grid gap-4 p-4 sm:p-5">
        {!closed &&
          (creating ? (
            <NewProposalForm
              today={today}
              propertyCodigo={listing.codigo}
              onDone={() => setCreating(false)}
              listing={{ codigo: listing.codigo, purpose: listing.purpose, leads: leadOptions }}
            />
          ) : (
            <div>
              <Button variant="outline" onClick={() => setCreating(true)}>
                <Icon name="plus" /> Nova proposta
              </Button>
            </div>
          ))}
        {proposals.length === 0 ? (
          <div className="grid gap-3 text-sm text-muted-foreground">
            <p>Nenhuma proposta para este imóvel ainda.</p>
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
