import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Icon } from "~/components/ui/icon";
import { STICKY_END, Td, Th } from "~/components/ui/table";
import { RecordList } from "~/features/crm/components/record-list";
import { RowActions } from "~/features/crm/components/row-actions";
import { telLink, whatsappLink } from "~/features/site/broker-profile";
import { formatDateTime } from "~/lib/format";
import type { CrmLead } from "../crm.server";
import { excerpt } from "../excerpt";
import { INTEREST_LABELS, LEAD_STATUS_LABELS, LEAD_STATUS_VARIANT, originLabel } from "../labels";

/** A Brazilian number as wa.me wants it: country code and digits. */
export function whatsappNumber(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length <= 11 ? `55${digits}` : digits;
}

function Phone({ lead }: { lead: CrmLead }) {
  return (
    <span className="flex items-center gap-1">
      <a href={telLink(lead.phone)} className="whitespace-nowrap font-medium text-primary underline-offset-4 hover:underline">
        {lead.phone}
      </a>
      <a
        href={whatsappLink(whatsappNumber(lead.phone), `Olá, ${lead.full_name.split(" ")[0]}!`)}
        target="_blank"
        rel="noopener noreferrer"
        className="grid size-9 place-items-center rounded-md text-whatsapp hover:bg-green-50"
      >
        <Icon name="whatsapp" className="size-5" label={`WhatsApp de ${lead.full_name}`} />
      </a>
    </span>
  );
}

function PropertyLink({ lead }: { lead: CrmLead }) {
  if (!lead.property) return null;
  return (
    <Link to={`/imoveis/${lead.property.id}`} target="_blank" className="text-xs text-primary underline-offset-4 hover:underline">
      {/* A portal's lead or a WhatsApp conversation is about a listing; a site lead with one booked a visit to it. */}
      {lead.origin === "portal" || lead.origin === "whatsapp" ? "Imóvel" : "Visita"}: {lead.property.codigo}
    </Link>
  );
}

function NameLink({ lead }: { lead: CrmLead }) {
  return (
    <Link to={`/crm/leads/${lead.id}`} className="font-semibold text-primary underline-offset-4 hover:underline [overflow-wrap:anywhere]">
      {lead.full_name}
    </Link>
  );
}

/** How much of a message the list shows before 'Ver tudo'. */
const MESSAGE_PREVIEW_LENGTH = 80;

/**
 * The lead's message (notes), so reading it takes no 'Editar': its start, and the whole text one
 * click (or Enter) away when it is longer.
 */
function Message({ lead }: { lead: CrmLead }) {
  const text = lead.notes?.trim();
  const preview = excerpt(text, MESSAGE_PREVIEW_LENGTH);
  if (!text || !preview) return <span className="text-muted-foreground">-</span>;
  if (preview === text.replace(/\s+/g, " ")) return <p className="whitespace-pre-line [overflow-wrap:anywhere]">{text}</p>;
  return (
    <details className="group">
      <summary className="cursor-pointer list-none [overflow-wrap:anywhere] [&::-webkit-details-marker]:hidden" title={text}>
        <span className="group-open:hidden">{preview}</span>
        <span className="ml-1 whitespace-nowrap text-xs font-medium text-primary group-open:ml-0">
          <span className="group-open:hidden">Ver tudo</span>
          <span className="hidden group-open:inline">Recolher</span>
        </span>
      </summary>
      <p className="mt-1 whitespace-pre-line [overflow-wrap:anywhere]">{text}</p>
    </details>
  );
}

/**
 * Spec §2 "CRM leads": a table from 1280 px (phone and e-mail share the 'Contato' column, interest
 * and origin theirs, so the message fits beside them), cards on narrower screens.
 */
export function LeadsTable({
  leads,
  emptyText = "Nenhum lead cadastrado",
  onEdit,
  onDelete,
}: {
  leads: CrmLead[];
  emptyText?: string;
  onEdit: (lead: CrmLead) => void;
  onDelete: (lead: CrmLead) => void;
}) {
  return (
    <RecordList
      items={leads}
      emptyText={emptyText}
      head={
        <>
          <Th>Nome</Th>
          <Th>Contato</Th>
          <Th>Mensagem</Th>
          <Th>
            <span className="whitespace-normal">Interesse e origem</span>
          </Th>
          <Th>Status</Th>
          <Th className={STICKY_END}>Ações</Th>
        </>
      }
      row={(lead) => (
        <>
          <Td className="min-w-36 align-top">
            <NameLink lead={lead} />
            <p className="text-xs text-muted-foreground">{formatDateTime(lead.created_at)}</p>
            <PropertyLink lead={lead} />
          </Td>
          <Td className="align-top">
            <Phone lead={lead} />
            <p className="max-w-48 truncate text-muted-foreground" title={lead.email ?? undefined}>
              {lead.email ?? "-"}
            </p>
          </Td>
          <Td className="w-full min-w-48 align-top">
            <Message lead={lead} />
          </Td>
          <Td className="align-top">
            {INTEREST_LABELS[lead.interest_type]}
            <span className="block text-xs text-muted-foreground">{originLabel(lead)}</span>
          </Td>
          <Td className="align-top">
            <Badge variant={LEAD_STATUS_VARIANT[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>
          </Td>
          <Td className={`${STICKY_END} align-top`}>
            <RowActions subject={`lead de ${lead.full_name}`} onEdit={() => onEdit(lead)} onDelete={() => onDelete(lead)} />
          </Td>
        </>
      )}
      card={(lead) => (
        <>
          <div className="flex items-start justify-between gap-2">
            <div className="min-w-0">
              <NameLink lead={lead} />
              <p className="text-xs text-muted-foreground">
                {formatDateTime(lead.created_at)} · {originLabel(lead)} · {INTEREST_LABELS[lead.interest_type]}
              </p>
              <PropertyLink lead={lead} />
            </div>
            <Badge variant={LEAD_STATUS_VARIANT[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>
          </div>
          {lead.notes?.trim() && (
            <div className="mt-2 rounded-md bg-muted/60 px-3 py-2 text-sm">
              <Message lead={lead} />
            </div>
          )}
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
            <div className="min-w-0">
              <Phone lead={lead} />
              <p className="truncate text-muted-foreground">{lead.email ?? "-"}</p>
            </div>
            <RowActions subject={`lead de ${lead.full_name}`} onEdit={() => onEdit(lead)} onDelete={() => onDelete(lead)} />
          </div>
        </>
      )}
    />
  );
}
