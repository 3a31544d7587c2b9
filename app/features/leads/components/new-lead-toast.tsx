import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { toast } from "~/components/ui/toaster";
import { leadPath } from "../contact-links";
import type { LatestSiteLead } from "../new-lead.server";

/**
 * 'Novo lead: …' on any CRM page when a site lead arrives while the tab is open. The layout's
 * loader hands the newest site lead on every revalidation (live updates revalidate on "leads");
 * only one newer than what this tab has already seen is announced, once.
 */
export function useNewLeadToast(latest: LatestSiteLead) {
  const seen = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    const at = latest?.createdAt ?? null;
    const previous = seen.current;
    // undefined: the first render, what was already there when the tab opened.
    const isNewer = at !== null && previous !== undefined && (previous === null || at > previous);
    if (previous === undefined || isNewer) seen.current = at;
    if (!isNewer || !latest) return;
    toast.info(
      <span>
        Novo lead: <strong>{latest.name}</strong>.{" "}
        <Link to={leadPath(latest.id)} className="font-semibold text-primary underline underline-offset-2">
          Abrir lead
        </Link>
      </span>,
      { duration: 30_000 },
    );
  }, [latest]);
}
