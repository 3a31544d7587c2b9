import { Card } from "~/components/ui/card";
import { requireStaff } from "~/features/auth/guard.server";
import { WorkingDayLists } from "~/features/dashboard/components/working-day-lists";
import { getDashboardCounters } from "~/features/dashboard/counters.server";
import { getWorkingDay } from "~/features/dashboard/working-day.server";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { getMailStatus } from "~/features/mail/admin.server";
import { MailNotice } from "~/features/mail/components/mail-notice";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-dashboard";
import { Icon } from "~/components/ui/icon";
import { ExclusivityWarnings } from "~/features/owners/components/exclusivity-warnings";
import { exclusivityWarnings } from "~/features/owners/captacao.server";
import { brokerDay } from "~/lib/format";
import { NewMatches } from "~/features/matching/components/new-matches";
import { NEW_MATCHES_DAYS, newMatches } from "~/features/matching/new-matches.server";
import { data } from "react-router";
import { WhatsappLeadDialog } from "~/features/dashboard/components/whatsapp-lead-dialog";
import { createWhatsappLead } from "~/features/leads/whatsapp-lead.server";
import { WHATSAPP_LEAD_MESSAGES, whatsappLeadSchema } from "~/features/leads/whatsapp-lead-schema";
import { firstIssueMessage } from "~/lib/form-data";
import { errorFields, logger } from "~/lib/logger.server";
import { asString, readBody, UnreadableBody } from "~/lib/request-body.server";
import { DashboardNegotiations } from "~/features/deals/components/dashboard-negotiations";
import { commissionsToReceive, openNegotiations } from "~/features/deals/dashboard.server";
import { canSeeCommissions, loadDealSettings } from "~/features/deals/deal-settings.server";

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request);
  const runtime = await getRuntime();
  const now = new Date();
  const [counters, day, matches] = await Promise.all([getDashboardCounters(runtime.db, now), getWorkingDay(runtime.db, now), newMatches(runtime.db, now)]);
  return {
    counters,
    day,
    // Issue 23: leads a listing published or made cheaper lately now fits (features/matching).
    matches: { ...matches, days: NEW_MATCHES_DAYS },
    // The instant the lists were read: 'há 2 horas' is computed from it on the server and in the
    // browser alike, so hydration sees the same text.
    now: now.toISOString(),
    // Admins learn here that e-mail is off or failing (links for sign-up, passwords, invitations).
    mail: staff.role === "admin" ? await getMailStatus(runtime) : null,
    // Exclusive captações ending within 30 days (issue 23, decision 024).
    exclusivity: await exclusivityWarnings(runtime.db, brokerDay(now)),
    // Issue 24: open proposals, and (for who may see commissions) what is due this month.
    negotiations: {
      open: await openNegotiations(runtime.db),
      commissions: canSeeCommissions(staff.role, await loadDealSettings(runtime.db)) ? await commissionsToReceive(runtime.db, brokerDay(now)) : null,
      today: brokerDay(now),
    },
  };
}

/** 'Registrar conversa de WhatsApp' (issue 25, decision 028): any staff member, like 'Novo Lead'. */
export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request);
  const actor = { id: staff.id, email: staff.email, name: staff.name };
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data({ ok: false, message: body.message }, { status: 400 });
  if (asString(body.intent) !== "whatsapp-lead") return data({ ok: false, message: "Ação desconhecida" }, { status: 400 });
  const parsed = whatsappLeadSchema.safeParse(body);
  if (!parsed.success) return data({ ok: false, message: firstIssueMessage(parsed.error) }, { status: 400 });
  try {
    const { db } = await getRuntime();
    const result = await createWhatsappLead(db, actor, parsed.data);
    if (!result.ok) return data({ ok: false, message: WHATSAPP_LEAD_MESSAGES.propertyNotFound }, { status: 400 });
    return { ok: true, message: WHATSAPP_LEAD_MESSAGES.created, leadId: result.id };
  } catch (error) {
    logger("crm").error({ ...errorFields(error) }, "whatsapp lead could not be saved");
    return data({ ok: false, message: WHATSAPP_LEAD_MESSAGES.saveFailed }, { status: 500 });
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Dashboard | CRM" }];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { counters, day, now, mail, matches } = loaderData;
  // The layout follows leads and properties; the lists here also show visits.
  useLiveUpdates("leads", "visits");
  const cards = [
    { id: "total-properties", label: "Total de Imóveis", value: counters.totalProperties, icon: "building-2" as const },
    { id: "total-leads", label: "Total de Leads", value: counters.totalLeads, icon: "users" as const },
    { id: "converted-leads", label: "Leads Convertidos", value: counters.convertedLeads, icon: "circle-check" as const },
    { id: "new-leads-month", label: "Novos Leads (Mês)", value: counters.newLeadsThisMonth, icon: "calendar-plus" as const },
  ];
  return (
    <div className="grid gap-6">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Dashboard</h1>
          <p className="text-sm text-muted-foreground">Visão geral dos imóveis e leads.</p>
        </div>
        <WhatsappLeadDialog />
      </header>
      {mail && <MailNotice status={mail} />}
      <ExclusivityWarnings warnings={loaderData.exclusivity} />
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {cards.map((card) => (
          <li key={card.id} className="min-w-0">
            <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:gap-4 sm:p-5" data-testid={card.id}>
              <Icon name={card.icon} className="size-11 rounded-md bg-primary/10 p-2.5 text-primary" />
              <div className="min-w-0">
                <p className="text-sm text-muted-foreground">{card.label}</p>
                <p className="text-3xl font-bold" data-value>
                  {card.value}
                </p>
              </div>
            </Card>
          </li>
        ))}
      </ul>
      <WorkingDayLists day={day} now={now} />
      <DashboardNegotiations {...loaderData.negotiations} />
      <NewMatches matches={matches} days={matches.days} />
    </div>
  );
}
