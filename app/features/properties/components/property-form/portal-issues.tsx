import { useFormContext, useWatch } from "react-hook-form";
import { cn } from "~/lib/utils";
import type { PropertyFormInput } from "../../crm-schema";
import { type PortalIssue, portalIssues } from "../../portal-checks";
import { completenessFromForm } from "./form-model";

/** The issues as a list: what the portals refuse first, then what scores the listing down. */
export function PortalIssueList({ issues, className }: { issues: readonly PortalIssue[]; className?: string }) {
  const ordered = [...issues].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "rejeita" ? -1 : 1));
  return (
    <ul className={cn("grid gap-1 text-sm", className)} data-testid="portal-issues">
      {ordered.map((issue) => (
        <li key={issue.key} className="flex items-start gap-2" data-issue={issue.key}>
          <span
            className={cn(
              "mt-0.5 shrink-0 rounded px-1.5 text-xs font-semibold",
              issue.severity === "rejeita" ? "bg-red-100 text-red-800" : "bg-amber-100 text-amber-900",
            )}
          >
            {issue.severity === "rejeita" ? "Rejeita" : "Reduz nota"}
          </span>
          <span>{issue.message}</span>
        </li>
      ))}
    </ul>
  );
}

/** The form's 'Portais' check, recomputed as the broker types (same rules as the CRM list's badge). */
export function PortalIssuesCheck() {
  const { control } = useFormContext<PropertyFormInput>();
  const values = useWatch({ control }) as Partial<PropertyFormInput>;
  const issues = portalIssues({ ...completenessFromForm(values), title: typeof values.title === "string" ? values.title : "" });
  return (
    <div className="grid gap-2">
      <p className="text-sm font-medium">{issues.length === 0 ? "Nada que os portais recusem ou pontuem menos." : "O que os portais vão recusar ou pontuar menos:"}</p>
      {issues.length > 0 && <PortalIssueList issues={issues} />}
    </div>
  );
}
