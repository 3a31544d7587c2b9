import type { ReactNode } from "react";
import { EmailAddress } from "~/components/ui/email-address";
import { Icon } from "~/components/ui/icon";
import { TYPE_LABELS } from "~/features/properties/labels";
import { formatDateTime } from "~/lib/format";
import { leadTelLink, leadWhatsappLink } from "../contact-links";
import type { CrmLead } from "../crm.server";
import { INTEREST_LABELS, originLabel } from "../labels";

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[9rem_1fr] sm:gap-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-sm font-medium">{children}</dd>
    </div>
  );
}

const linkClass = "inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline";

/** Every field of the lead, with the phone and e-mail as links. */
export function LeadDetails({ lead }: { lead: CrmLead }) {
  return (
    <dl className="grid gap-3">
      <Field label="Telefone">
        <span className="flex flex-wrap gap-x-4 gap-y-1">
          <a href={leadTelLink(lead.phone)} className={linkClass}>
            <Icon name="phone" className="size-4" /> {lead.phone}
          </a>
          <a href={leadWhatsappLink(lead.phone)} target="_blank" rel="noopener noreferrer" className={linkClass}>
            <Icon name="whatsapp" className="size-4" /> WhatsApp
          </a>
        </span>
      </Field>
      <Field label="Email">
        {lead.email ? (
          // Inline, not flex: a long address wraps inside the card, after '@' or before a dot.
          <a href={`mailto:${lead.email}`} className="text-primary underline-offset-4 hover:underline">
            <Icon name="mail" className="mr-1 inline-block size-4 align-[-2px]" />
            <EmailAddress email={lead.email} />
          </a>
        ) : (
          <span className="text-muted-foreground">Não informado</span>
        )}
      </Field>
      <Field label="Interesse">{INTEREST_LABELS[lead.interest_type]}</Field>
      <Field label="Tipo de imóvel">{lead.property_type ? TYPE_LABELS[lead.property_type] : <span className="text-muted-foreground">Não informado</span>}</Field>
      <Field label="Origem">{originLabel(lead)}</Field>
      {/* A portal's own rating of the lead (issue 13), shown as the portal sent it. */}
      {lead.portal_temperature && <Field label="Temperatura">{lead.portal_temperature}</Field>}
      <Field label="Recebido em">
        <time dateTime={lead.created_at}>{formatDateTime(lead.created_at)}</time>
      </Field>
      {lead.status === "perdido" && (
        <Field label="Motivo da perda">
          {lead.lost_reason ?? <span className="text-muted-foreground">Não informado</span>}
          {lead.lost_note && <span className="mt-0.5 block whitespace-pre-wrap font-normal">{lead.lost_note}</span>}
        </Field>
      )}
      <Field label="Mensagem / notas">
        {lead.notes ? <span className="whitespace-pre-wrap font-normal">{lead.notes}</span> : <span className="text-muted-foreground">Nenhuma</span>}
      </Field>
    </dl>
  );
}
