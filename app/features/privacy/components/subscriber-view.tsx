import { useEffect, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { EmailAddress } from "~/components/ui/email-address";
import { Icon } from "~/components/ui/icon";
import { ExportLinks } from "./export-links";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import type { AlertSubscriber } from "~/features/alerts/privacy.server";
import { formatDateTime } from "~/lib/format";

const DELETE_ALERTS_KEY = "privacy-delete-alerts";

/**
 * The erasure's answer, from the page (this view is gone once its alerts are): the toast, and back
 * to the empty page instead of "Alerta não encontrado". True once the alerts were erased.
 */
export function useDeleteAlertsAnswer(): boolean {
  const fetcher = useFetcher<ActionAnswer>({ key: DELETE_ALERTS_KEY });
  const navigate = useNavigate();
  useAnswerToast(fetcher);
  const erased = fetcher.state === "idle" && fetcher.data?.ok === true;
  useEffect(() => {
    if (erased) navigate("/crm/privacidade", { replace: true });
  }, [erased, navigate]);
  return erased;
}

/**
 * An 'Avise-me' subscriber with no lead (decision 025): their alerts, 'Exportar dados' and
 * 'Apagar alertas' (erasing is the whole right here: nothing else is held about them).
 */
export function SubscriberView({ subscriber }: { subscriber: AlertSubscriber }) {
  const [confirming, setConfirming] = useState(false);
  const fetcher = useFetcher<ActionAnswer>({ key: DELETE_ALERTS_KEY });
  // A refusal is toasted by the page (useDeleteAlertsAnswer); the dialog gets out of its way.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.ok) setConfirming(false);
  }, [fetcher.state, fetcher.data]);
  const count = subscriber.alerts.length;
  return (
    <Card className="grid gap-4 p-4 sm:p-5" role="region" aria-labelledby="privacy-subscriber-title">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id="privacy-subscriber-title" className="flex items-center gap-2 text-lg font-semibold">
            <Icon name="bell" className="size-5 text-primary" /> <EmailAddress email={subscriber.email} />
          </h2>
          <p className="text-sm text-muted-foreground">
            Nenhum lead com este contato: só {count === 1 ? "um alerta" : `${count} alertas`} “Avise-me” e {subscriber.mailIds.length}{" "}
            {subscriber.mailIds.length === 1 ? "e-mail" : "e-mails"} de alerta.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ExportLinks query={`alerta=${subscriber.anchorId}`} />
          <Button variant="destructive" onClick={() => setConfirming(true)}>
            <Icon name="trash-2" /> Apagar alertas
          </Button>
        </div>
      </div>
      <ul className="grid gap-2 text-sm" aria-label="Alertas do titular">
        {subscriber.alerts.map((alert) => (
          <li key={alert.id} className="rounded-md border border-border p-3">
            <p className="font-medium">{alert.search}</p>
            <p className="text-muted-foreground">
              {alert.status} · pedido em {formatDateTime(alert.created_at)}
              {alert.phone ? ` · WhatsApp ${alert.phone}` : ""}
              {alert.last_sent_at ? ` · último aviso em ${formatDateTime(alert.last_sent_at)}` : ""}
            </p>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => fetcher.state === "idle" && setConfirming(open)}
        title="Apagar os alertas deste e-mail?"
        description={`${count === 1 ? "O alerta" : `Os ${count} alertas`}, os links e os e-mails de alerta deste endereço serão apagados. Não dá para desfazer.`}
        confirmLabel="Apagar alertas"
        busy={fetcher.state !== "idle"}
        onConfirm={() => fetcher.submit({ intent: "delete-alerts", alerta: subscriber.anchorId }, { method: "post", action: "/crm/privacidade" })}
      />
    </Card>
  );
}
