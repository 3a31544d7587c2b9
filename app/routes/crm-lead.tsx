import { useState } from "react";
import { data, isRouteErrorResponse, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import { requireStaff } from "~/features/auth/guard.server";
import { LeadNextContactForm, LeadNoteForm, LeadStatusForm } from "~/features/leads/components/lead-actions";
import { LeadDetails } from "~/features/leads/components/lead-details";
import { LeadFormDialog } from "~/features/leads/components/lead-form-dialog";
import { LeadPropertyCard } from "~/features/leads/components/lead-property-card";
import { LeadSamePerson } from "~/features/leads/components/lead-same-person";
import { LeadTimeline } from "~/features/leads/components/lead-timeline";
import { LeadWhatsapp } from "~/features/leads/components/lead-whatsapp";
import { changeLeadStatus } from "~/features/leads/crm.server";
import { LEAD_STATUS_LABELS, LEAD_STATUS_VARIANT } from "~/features/leads/labels";
import { addLeadNote, loadLeadPage, setNextContact } from "~/features/leads/lead-page.server";
import { resolveLoss } from "~/features/leads/loss.server";
import { loadLostReasons } from "~/features/settings/lost-reasons.server";
import { LEAD_PAGE_MESSAGES, nextContactSchema, noteSchema, statusSchema } from "~/features/leads/lead-page-schema";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { negotiationAction } from "~/features/deals/actions.server";
import { NegotiationsSection } from "~/features/deals/components/negotiations-section";
import { canSeeCommissions, loadDealSettings } from "~/features/deals/deal-settings.server";
import { loadLeadNegotiations } from "~/features/deals/negotiations.server";
import { brokerDay } from "~/lib/format";
import { LeadMatchingSection } from "~/features/matching/components/lead-matching";
import { loadLeadMatching, matchingAction } from "~/features/matching/lead-matching.server";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-lead";

export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  const { db, env } = await getRuntime();
  const page = await loadLeadPage(db, env, params.id);
  if (!page) throw data(LEAD_PAGE_MESSAGES.notFound, { status: 404 });
  // Issue 23: what the lead wants and the listings that fit (features/matching).
  const matching = await loadLeadMatching(db, env, { ...page.lead, property_id: page.property?.id ?? null });
  // Issue 24: the lead's proposals and deals; commissions only for whoever may see them.
  const dealSettings = await loadDealSettings(db);
  const seeCommissions = canSeeCommissions(staff.role, dealSettings);
  const negotiations = {
    proposals: await loadLeadNegotiations(db, params.id, dealSettings, seeCommissions),
    seeCommissions,
    today: brokerDay(new Date()),
    propertyCodigo: page.property?.codigo ?? null,
  };
  // Issue 24, item 3: the reasons offered when the lead is lost (status form, edit dialog).
  const lostReasons = await loadLostReasons(db);
  // The person's rights (export, anonymise) are an admin's: a corretor does not see the way there.
  return { ...page, matching, negotiations, lostReasons, isAdmin: staff.role === "admin" };
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const actor = { id: staff.id, email: staff.email, name: staff.name };
  const { db, env } = await getRuntime();
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  const matchingAnswer = await matchingAction(db, env, actor, params.id, body);
  if (matchingAnswer) return matchingAnswer;
  const negotiationAnswer = await negotiationAction(db, staff, params.id, body);
  if (negotiationAnswer) return negotiationAnswer;
  const intent = asString(body.intent);
  const notFound = () => data({ ok: false, message: LEAD_PAGE_MESSAGES.notFound }, { status: 404 });
  const invalid = (error: { issues: readonly { message: string }[] }) => data({ ok: false, message: firstIssueMessage(error) }, { status: 400 });
  const failed = (message: string) => (error: unknown) => {
    logger("crm").error({ ...errorFields(error) }, "lead page write failed");
    return data({ ok: false, message }, { status: 500 });
  };

  if (intent === "status") {
    const parsed = statusSchema.safeParse(body);
    if (!parsed.success) return invalid(parsed.error);
    try {
      // Issue 24: 'perdido' only with a reason from the settings' list (or the one the lead has).
      const loss = await resolveLoss(db, params.id, parsed.data);
      if (!loss.ok) return data({ ok: false, message: loss.message }, { status: 400 });
      return (await changeLeadStatus(db, actor, params.id, parsed.data.status, loss.loss)) ? { ok: true, message: LEAD_PAGE_MESSAGES.statusChanged } : notFound();
    } catch (error) {
      return failed(LEAD_PAGE_MESSAGES.statusFailed)(error);
    }
  }
  if (intent === "note") {
    const parsed = noteSchema.safeParse(body);
    if (!parsed.success) return invalid(parsed.error);
    try {
      return (await addLeadNote(db, actor, params.id, parsed.data.body)) ? { ok: true, message: LEAD_PAGE_MESSAGES.noteAdded } : notFound();
    } catch (error) {
      return failed(LEAD_PAGE_MESSAGES.noteFailed)(error);
    }
  }
  if (intent === "next_contact") {
    const parsed = nextContactSchema.safeParse(body);
    if (!parsed.success) return invalid(parsed.error);
    const at = parsed.data.next_contact_at;
    try {
      return (await setNextContact(db, actor, params.id, at))
        ? { ok: true, message: at ? LEAD_PAGE_MESSAGES.nextContactSet : LEAD_PAGE_MESSAGES.nextContactCleared }
        : notFound();
    } catch (error) {
      return failed(LEAD_PAGE_MESSAGES.nextContactFailed)(error);
    }
  }
  return data({ ok: false, message: LEAD_PAGE_MESSAGES.unknownIntent }, { status: 400 });
}

export const meta: Route.MetaFunction = ({ data: page }) => [{ title: page ? `${page.lead.full_name} | Leads | CRM` : "Lead não encontrado | CRM" }];

function Section({ title, icon, children, className }: { title: string; icon: Parameters<typeof Icon>[0]["name"]; children: React.ReactNode; className?: string }) {
  const id = `secao-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <Card className={`p-4 sm:p-5 ${className ?? ""}`} role="region" aria-labelledby={id}>
      <h2 id={id} className="mb-3 flex items-center gap-2 text-base font-semibold">
        <Icon name={icon} className="size-4 text-primary" /> {title}
      </h2>
      {children}
    </Card>
  );
}

export default function CrmLeadPage({ loaderData }: Route.ComponentProps) {
  const { lead, property, timeline, samePerson, templates, brokerName, isAdmin, matching, negotiations, lostReasons } = loaderData;
  // Notes, status changes and visits made elsewhere (another tab, the board, the agenda) appear here.
  useLiveUpdates("leads", "visits");
  const [editing, setEditing] = useState(false);

  return (
    <div className="grid gap-6">
      <header className="grid gap-3">
        <Link to="/crm/leads" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <Icon name="arrow-left" className="size-4" /> Leads
        </Link>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h1 className="break-words text-2xl font-bold">{lead.full_name}</h1>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
              <Badge variant={LEAD_STATUS_VARIANT[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>
              {samePerson.length > 0 && (
                <a href="#mesma-pessoa" className="text-primary underline-offset-4 hover:underline">
                  Mesma pessoa: {samePerson.length} {samePerson.length === 1 ? "outro lead" : "outros leads"}
                </a>
              )}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setEditing(true)}>
              <Icon name="pencil" /> Editar
            </Button>
            {isAdmin && (
              <Link to={`/crm/privacidade?lead=${lead.id}`} className={buttonClass("outline")}>
                <Icon name="shield" /> Dados pessoais (LGPD)
              </Link>
            )}
            <Link to={`/crm/visitas?lead=${lead.id}`} className={buttonClass("default")}>
              <Icon name="calendar-plus" /> Agendar visita
            </Link>
          </div>
        </div>
      </header>

      {/* Two columns from 1280 px: beside the menu, a 1024 px window left the details too narrow for a phone number. */}
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <div className="grid gap-6">
          <Section title="Dados do lead" icon="user">
            <LeadDetails lead={lead} />
            <div className="mt-4 border-t border-border pt-4">
              <LeadStatusForm leadId={lead.id} status={lead.status} lostReason={lead.lost_reason} lostNote={lead.lost_note} reasons={lostReasons} />
            </div>
          </Section>
          <Section title="Próximo contato" icon="bell">
            <LeadNextContactForm leadId={lead.id} nextContactAt={lead.next_contact_at} />
          </Section>
          <Section title="WhatsApp" icon="whatsapp">
            <LeadWhatsapp
              phone={lead.phone}
              templates={templates}
              values={{
                leadName: lead.full_name,
                propertyTitle: property?.title,
                propertyCodigo: property?.codigo,
                propertyLink: property?.publicUrl,
                brokerName,
              }}
            />
          </Section>
          {property && (
            <Section title="Imóvel" icon="house">
              <LeadPropertyCard property={property} />
            </Section>
          )}
          {samePerson.length > 0 && (
            <div id="mesma-pessoa" className="scroll-mt-4">
              <Section title="Mesma pessoa" icon="link">
                <p className="mb-3 text-sm text-muted-foreground">Outros leads com o mesmo telefone ou e-mail. Eles não são unidos automaticamente.</p>
                <LeadSamePerson leads={samePerson} />
              </Section>
            </div>
          )}
        </div>

        <div className="grid gap-6">
          <Section title="Negociações" icon="heart-handshake">
            <NegotiationsSection {...negotiations} />
          </Section>
          <Section title="Perfil de busca" icon="target">
            <LeadMatchingSection matching={matching} />
          </Section>
          <Section title="Histórico" icon="history">
          <LeadNoteForm leadId={lead.id} />
          <div className="mt-5 border-t border-border pt-5">
            <LeadTimeline items={timeline} receivedFrom={lead.origin === "portal" ? `pelo portal${lead.portal_name ? ` ${lead.portal_name}` : ""}` : undefined} />
          </div>
          </Section>
        </div>
      </div>

      <LeadFormDialog open={editing} onOpenChange={setEditing} lead={lead} lostReasons={lostReasons} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Card className="mx-auto grid max-w-lg gap-3 p-6 text-center">
      <h1 className="text-xl font-bold">{notFound ? "Lead não encontrado" : "Erro ao carregar o lead"}</h1>
      <p className="text-sm text-muted-foreground">
        {notFound ? "Este lead não existe ou foi excluído." : "Tente recarregar a página em instantes."}
      </p>
      <Link to="/crm/leads" className={`${buttonClass("outline")} mx-auto`}>
        <Icon name="arrow-left" /> Voltar para os leads
      </Link>
    </Card>
  );
}
