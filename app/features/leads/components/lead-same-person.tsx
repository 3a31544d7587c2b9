import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { formatDate } from "~/lib/format";
import { leadPath } from "../contact-links";
import { LEAD_STATUS_LABELS, LEAD_STATUS_VARIANT } from "../labels";
import type { SamePersonLead } from "../lead-page.server";

const MATCH_LABELS = { phone: "mesmo telefone", email: "mesmo e-mail" } as const;

/** Other leads that look like this person (same phone digits or e-mail): linked, never merged. */
export function LeadSamePerson({ leads }: { leads: SamePersonLead[] }) {
  return (
    <ul className="grid gap-2">
      {leads.map((lead) => (
        <li key={lead.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border p-2">
          <div className="min-w-0">
            <Link to={leadPath(lead.id)} className="break-words font-semibold text-primary underline-offset-4 hover:underline">
              {lead.full_name}
            </Link>
            <p className="text-xs text-muted-foreground">
              {formatDate(lead.created_at)} · {lead.matches.map((match) => MATCH_LABELS[match]).join(" e ")}
            </p>
          </div>
          <Badge variant={LEAD_STATUS_VARIANT[lead.status]}>{LEAD_STATUS_LABELS[lead.status]}</Badge>
        </li>
      ))}
    </ul>
  );
}
