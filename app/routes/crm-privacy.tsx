import { data, useActionData } from "react-router";
import { Card } from "~/components/ui/card";
import { requireAdmin } from "~/features/auth/guard.server";
import { useLiveUpdates } from "~/features/live/use-live-updates";
import { PersonSearch } from "~/features/privacy/components/person-search";
import { PersonView } from "~/features/privacy/components/person-view";
import { SubscriberView, useDeleteAlertsAnswer } from "~/features/privacy/components/subscriber-view";
import { OwnerPrivacyCard } from "~/features/owners/components/owner-privacy-card";
import { RetentionCard } from "~/features/privacy/components/retention-card";
import { handlePrivacyAction, loadPrivacyPage, type PrivacyAnswer } from "~/features/privacy/page.server";
import { readBody, UnreadableBody } from "~/lib/request-body.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-privacy";

/**
 * /crm/privacidade — the person's rights under the LGPD (admins only): find a person by phone or
 * e-mail (or open it from a lead, ?lead=<id>), see what is held, export it, anonymise it; and
 * the retention period the daily job applies.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return loadPrivacyPage((await getRuntime()).db, new URL(request.url));
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const body = await readBody(request);
  if (body instanceof UnreadableBody) return data<PrivacyAnswer>({ ok: false, message: body.message }, { status: 400 });
  return handlePrivacyAction((await getRuntime()).db, { id: admin.id, email: admin.email, name: admin.name }, body);
}

export const meta: Route.MetaFunction = () => [{ title: "Privacidade (LGPD) | CRM" }];

export default function CrmPrivacyPage({ loaderData }: Route.ComponentProps) {
  useLiveUpdates("leads", "visits", "settings");
  const answer = useActionData<typeof action>();
  const searchError = answer && "intent" in answer && answer.intent === "search" && !answer.ok ? answer.message : undefined;
  const { person, leadNotFound, subscriber, subscriberNotFound, retention } = loaderData;
  const alertsErased = useDeleteAlertsAnswer();
  return (
    <div className="grid gap-6">
      <header>
        <h1 className="text-2xl font-bold">Privacidade (LGPD)</h1>
        <p className="text-sm text-muted-foreground">
          Quando uma pessoa pede acesso aos seus dados ou a exclusão deles (LGPD, art. 18), encontre-a pelo telefone ou e-mail, veja
          tudo o que está guardado, exporte e, se for o caso, anonimize. As duas ações ficam registradas na auditoria, sem os dados.
        </p>
      </header>
      <PersonSearch error={searchError} />
      {leadNotFound && (
        <Card className="p-4 text-sm" role="alert">
          Lead não encontrado. Ele pode ter sido excluído; busque pelo telefone ou e-mail.
        </Card>
      )}
      {subscriberNotFound && !alertsErased && (
        <Card className="p-4 text-sm" role="alert">
          Alerta não encontrado. Ele pode já ter sido apagado; busque pelo telefone ou e-mail.
        </Card>
      )}
      {person && <PersonView person={person} />}
      {subscriber && <SubscriberView subscriber={subscriber} />}
      <OwnerPrivacyCard />
      <RetentionCard {...retention} />
    </div>
  );
}
