import { Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { type ActionAnswer, useAnswerToast } from "~/features/crm/form-helpers";
import { formatDateTime } from "~/lib/format";
import type { PropertyLeadView } from "../property-leads.server";

/** One lead on a listing's 'Leads compatíveis' page: why it fits, and one click to send. */
export function PropertyLeadItem({ lead, propertyId, statusLabel }: { lead: PropertyLeadView; propertyId: string; statusLabel: string }) {
  const fetcher = useFetcher<ActionAnswer>({ key: `property-lead-send-${lead.leadId}` });
  useAnswerToast(fetcher);
  const busy = fetcher.state !== "idle";
  return (
    <li className="grid gap-2 border-t border-border pt-4 first:border-t-0 first:pt-0" data-testid="property-lead">
      <div className="flex flex-wrap items-center gap-2">
        <Link to={`/crm/leads/${lead.leadId}`} className="font-semibold text-primary underline-offset-4 hover:underline">
          {lead.full_name}
        </Link>
        <Badge variant="secondary">{statusLabel}</Badge>
        {lead.sentAt && <span className="text-xs text-muted-foreground">Enviado em {formatDateTime(lead.sentAt)}</span>}
      </div>
      <ul className="flex flex-wrap gap-1.5" aria-label="Critérios">
        {lead.reasons.map((reason) => (
          <li key={reason.key}>
            <Badge variant={reason.ok ? "success" : "secondary"}>
              {reason.text} <span aria-hidden="true">{reason.ok ? "✓" : "✗"}</span>
              <span className="sr-only">{reason.ok ? "(atende)" : "(não atende)"}</span>
            </Badge>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        {lead.whatsappUrl && (
          <a
            href={lead.whatsappUrl}
            target="_blank"
            rel="noreferrer"
            className={buttonClass("whatsapp", "sm")}
            onClick={() => fetcher.submit({ intent: "match_send", channel: "whatsapp", lead_id: lead.leadId }, { method: "post" })}
          >
            <Icon name="whatsapp" /> Enviar por WhatsApp
          </a>
        )}
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="match_send" />
          <input type="hidden" name="channel" value="email" />
          <input type="hidden" name="lead_id" value={lead.leadId} />
          <Button type="submit" variant="outline" size="sm" disabled={!lead.hasEmail || busy} data-property={propertyId}>
            <Icon name="mail" /> {busy ? "Enviando..." : "Enviar por e-mail"}
          </Button>
        </fetcher.Form>
      </div>
    </li>
  );
}
