import { type ReactNode, useEffect } from "react";
import { toast } from "~/components/ui/toaster";

/** A CRM list page's header (leads, listings): the title, the count line (read out when it changes) and the actions. */
export function ListPageHeader({ title, summary, children }: { title: string; summary: ReactNode; children: ReactNode }) {
  return (
    <header className="flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {summary}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">{children}</div>
    </header>
  );
}

/** The loader could not read the list (the database did not answer): the page shows it empty and says why. */
export function useLoadFailedToast(loadFailed: boolean, message: string) {
  useEffect(() => {
    if (loadFailed) toast.error(message);
  }, [loadFailed, message]);
}
