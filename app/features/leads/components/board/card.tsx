import { useDraggable } from "@dnd-kit/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { LEAD_STATUSES, type LeadStatus } from "~/db/values";
import { formatRelative } from "~/features/dashboard/relative-time";
import { fillTemplate, type WhatsappTemplate } from "~/features/settings/templates";
import { cn } from "~/lib/utils";
import type { BoardLead } from "../../board.server";
import { leadWhatsappLink, propertyPath } from "../../contact-links";
import { LEAD_STATUS_LABELS } from "../../labels";
import type { DragData } from "./dnd";

/** What a card's WhatsApp button says: the first of the settings' templates, filled for the lead. */
export type BoardContact = { template: WhatsappTemplate | null; brokerName: string; publicUrl: string };

export type OnMove = (lead: BoardLead, to: LeadStatus) => void;

function MoveSelect({ lead, onMove }: { lead: BoardLead; onMove: OnMove }) {
  const id = `mover-${lead.id}`;
  return (
    <div className="relative min-w-28 flex-1">
      <label htmlFor={id} className="sr-only">
        Mover {lead.full_name} para…
      </label>
      <select
        id={id}
        value=""
        onChange={(event) => {
          const to = event.target.value as LeadStatus;
          if ((LEAD_STATUSES as readonly string[]).includes(to)) onMove(lead, to);
        }}
        className="h-9 w-full appearance-none rounded-md border border-input bg-white pl-2.5 pr-8 text-sm text-foreground"
      >
        <option value="" disabled>
          Mover para…
        </option>
        {LEAD_STATUSES.filter((status) => status !== lead.status).map((status) => (
          <option key={status} value={status}>
            {LEAD_STATUS_LABELS[status]}
          </option>
        ))}
      </select>
      <Icon name="arrow-right-left" className="pointer-events-none absolute right-2.5 top-1/2 -translate-y-1/2 text-muted-foreground" />
    </div>
  );
}

/**
 * WhatsApp with the first message template already written (the lead page offers them all); a
 * blank conversation when the broker has no template.
 */
function WhatsappButton({ lead, contact }: { lead: BoardLead; contact: BoardContact }) {
  const message = contact.template
    ? fillTemplate(contact.template.body, {
        leadName: lead.full_name,
        propertyTitle: lead.property_title,
        propertyCodigo: lead.property_codigo,
        propertyLink: lead.property_id ? `${contact.publicUrl}${propertyPath(lead.property_id)}` : null,
        brokerName: contact.brokerName,
      })
    : undefined;
  return (
    <a
      href={leadWhatsappLink(lead.phone, message)}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(buttonClass("whatsapp", "sm"), "h-9 shrink-0 px-2.5")}
      title={message ? `${contact.template!.name}: ${message}` : undefined}
      aria-label={`WhatsApp para ${lead.full_name}${contact.template ? ` (${contact.template.name})` : ""}`}
    >
      <Icon name="whatsapp" /> WhatsApp
    </a>
  );
}

/** The card's text; the whole name, on as many lines as it takes (issue 21: names were cut). */
export function CardBody({ lead, now, handle }: { lead: BoardLead; now: string; handle?: ReactNode }) {
  return (
    <>
      <div className="flex items-start gap-1">
        {handle}
        <div className="min-w-0 flex-1 pt-1.5">
          <Link to={`/crm/leads/${lead.id}`} className="block break-words font-semibold leading-snug text-primary underline-offset-4 hover:underline">
            {lead.full_name}
          </Link>
          <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
            <span className="whitespace-nowrap">{lead.phone}</span>
            {lead.property_codigo && <span className="whitespace-nowrap font-mono font-semibold text-foreground">{lead.property_codigo}</span>}
            <span className="whitespace-nowrap">{formatRelative(lead.created_at, now)}</span>
          </p>
        </div>
      </div>
      {lead.status === "perdido" && lead.lost_reason && (
        <p className="mt-2 text-sm">
          <span className="text-muted-foreground">Motivo:</span> <span className="font-medium">{lead.lost_reason}</span>
        </p>
      )}
      {lead.excerpt && (
        <p className="mt-2 line-clamp-2 break-words text-sm text-foreground/80" title={lead.excerpt}>
          {lead.excerpt}
        </p>
      )}
    </>
  );
}

export function BoardCard({ lead, now, contact, onMove }: { lead: BoardLead; now: string; contact: BoardContact; onMove: OnMove }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: lead.id,
    data: { name: lead.full_name, status: lead.status } satisfies DragData,
    attributes: { roleDescription: "lead arrastável" },
  });
  return (
    <li ref={setNodeRef} className={cn("rounded-lg border border-border bg-white p-2.5 shadow-xs", isDragging && "opacity-40")} data-lead-card={lead.id}>
      <CardBody
        lead={lead}
        now={now}
        handle={
          <button
            type="button"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={`Arrastar ${lead.full_name}`}
            // The handle alone takes the touch: the rest of the card still scrolls the board.
            className="grid size-9 shrink-0 cursor-grab touch-none place-items-center rounded-md text-muted-foreground hover:bg-muted active:cursor-grabbing"
          >
            <Icon name="grip-vertical" className="size-4" />
          </button>
        }
      />
      <div className="mt-2 flex flex-wrap gap-2">
        <WhatsappButton lead={lead} contact={contact} />
        <MoveSelect lead={lead} onMove={onMove} />
      </div>
    </li>
  );
}
