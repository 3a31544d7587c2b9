import { Badge } from "~/components/ui/badge";
import { Icon } from "~/components/ui/icon";
import type { IconName } from "~/components/icons/names";
import { formatDateTime } from "~/lib/format";
import { LEAD_STATUS_LABELS } from "../labels";
import type { TimelineItem } from "../timeline.server";

const VISIT_STATUS_LABELS = { agendada: "agendada", realizada: "realizada", cancelada: "cancelada" } as const;
const MAIL_STATUS = {
  pending: { label: "Na fila", variant: "warning" },
  sent: { label: "Enviado", variant: "success" },
  failed: { label: "Falhou", variant: "danger" },
} as const;

const statusLabel = (value: keyof typeof LEAD_STATUS_LABELS | null) => (value ? LEAD_STATUS_LABELS[value] : "—");
/** A loss's reason and note (issue 24), after who made the change. */
const lossDetail = (item: { lostReason: string | null; lostNote: string | null }) =>
  [item.lostReason ? `Motivo: ${item.lostReason}` : null, item.lostNote ? `Observação: ${item.lostNote}` : null].filter(Boolean).join(" · ");
/** Who did it; no actor means the site (a visitor) or a change outside the CRM. */
const who = (actor: string | null, fallback = "sistema") => actor ?? fallback;

function describe(item: TimelineItem, receivedFrom: string): { icon: IconName; title: string; detail?: string } {
  switch (item.kind) {
    case "created":
      return { icon: "user-plus", title: item.actor ? `Lead cadastrado por ${item.actor}` : `Lead recebido ${receivedFrom}`, detail: lossDetail(item) || undefined };
    case "status":
      return {
        icon: "arrow-right-left",
        title: `Status: ${statusLabel(item.from)} → ${statusLabel(item.to)}`,
        detail: [`por ${who(item.actor)}`, lossDetail(item)].filter(Boolean).join(" · "),
      };
    case "note":
      return { icon: "sticky-note", title: `Nota de ${who(item.actor)}`, detail: item.body };
    case "next_contact":
      return {
        icon: "bell",
        title: item.nextContactAt ? `Próximo contato: ${formatDateTime(item.nextContactAt)}` : "Próximo contato removido",
        detail: `por ${who(item.actor)}`,
      };
    case "visit":
      return {
        icon: item.status === "cancelada" ? "calendar-x" : item.status === "realizada" ? "calendar-check" : "calendar",
        title: `Visita ${VISIT_STATUS_LABELS[item.status]} para ${formatDateTime(item.scheduledAt)}`,
        detail: [item.property ? `${item.property.codigo} — ${item.property.title}` : null, item.notes, item.actor ? `por ${item.actor}` : null]
          .filter(Boolean)
          .join(" · "),
      };
    case "email":
      return { icon: "mail", title: `E-mail: ${item.subject}`, detail: `para ${item.to}` };
    case "negotiation":
      return { icon: "heart-handshake", title: item.title, detail: item.detail ?? undefined };
    case "match":
      return {
        icon: item.channel === "email" ? "send" : "whatsapp",
        title: `Imóvel enviado por ${item.channel === "email" ? "e-mail" : "WhatsApp"}: ${item.property.codigo} — ${item.property.title}`,
        detail: `por ${who(item.actor)}`,
      };
  }
}

/**
 * The lead's history, newest first (lead-page.server.ts / timeline.server.ts). `receivedFrom`
 * says where a lead no staff member entered came from: "pelo site", or a portal's name.
 */
export function LeadTimeline({ items, receivedFrom = "pelo site" }: { items: TimelineItem[]; receivedFrom?: string }) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">Nada registrado ainda.</p>;
  return (
    <ol className="grid gap-0" aria-label="Histórico do lead">
      {items.map((item) => {
        const { icon, title, detail } = describe(item, receivedFrom);
        return (
          <li key={`${item.kind}-${item.id}`} className="relative flex gap-3 pb-5 last:pb-0" data-kind={item.kind}>
            <span className="relative z-10 grid size-8 shrink-0 place-items-center rounded-full bg-primary/10 text-primary" aria-hidden="true">
              <Icon name={icon} className="size-4" />
            </span>
            <div className="min-w-0 flex-1 pt-1">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-semibold">
                <span className="break-words">{title}</span>
                {item.kind === "email" && <Badge variant={MAIL_STATUS[item.status].variant}>{MAIL_STATUS[item.status].label}</Badge>}
              </p>
              {detail && (
                <p className={item.kind === "note" ? "mt-1 whitespace-pre-wrap break-words rounded-md bg-muted p-2 text-sm" : "mt-0.5 break-words text-sm text-muted-foreground"}>
                  {detail}
                </p>
              )}
              <p className="mt-0.5 text-xs text-muted-foreground">
                <time dateTime={item.at}>{formatDateTime(item.at)}</time>
              </p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
