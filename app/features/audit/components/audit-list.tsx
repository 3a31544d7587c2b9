import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";
import { formatDateTime } from "~/lib/format";
import { cn } from "~/lib/utils";
import type { AuditRow } from "../audit-log.server";

/**
 * The audit trail as a list of entries, one card each at every width: when on the left (above on a
 * phone), then what happened, to which record, by whom, and the details — all text that wraps, so
 * nothing is ever cut off or scrolls sideways.
 */
export function AuditList({ entries }: { entries: AuditRow[] }) {
  if (entries.length === 0) return <p className="p-10 text-center text-muted-foreground">Nenhuma alteração registrada ainda</p>;
  return (
    <ol className="grid divide-y divide-border" aria-label="Registros de auditoria">
      {entries.map((entry) => (
        <li key={entry.id} className="grid gap-1 p-4 text-sm sm:grid-cols-[9.5rem_minmax(0,1fr)] sm:gap-x-6" data-testid="audit-entry">
          <time dateTime={entry.at} className="text-xs text-muted-foreground sm:pt-0.5 sm:text-sm">
            {formatDateTime(entry.at)}
          </time>
          <div className="grid min-w-0 gap-1 [overflow-wrap:anywhere]">
            <p>
              <span className="font-semibold">{entry.actionLabel}</span>
              <span className="text-muted-foreground"> · </span>
              <span>{entry.record}</span>
            </p>
            <p className="text-muted-foreground">
              Por <span className="font-medium text-foreground">{entry.actor}</span>
              {entry.actorNote && <span> ({entry.actorNote})</span>}
            </p>
            {entry.details.length > 0 && (
              <ul className="grid gap-0.5 text-muted-foreground">
                {entry.details.map((line, index) => (
                  <li key={index}>{line}</li>
                ))}
              </ul>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}

const pageLink = "inline-flex h-10 items-center gap-1 rounded-md border border-border bg-white px-3 text-sm font-medium hover:bg-muted";

/** Older and newer pages of the trail (`?pagina=`). */
export function AuditPagination({ page, pageCount }: { page: number; pageCount: number }) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Páginas do registro de alterações" className="flex items-center justify-between gap-3 p-4">
      {page > 1 ? (
        <Link to={page === 2 ? "?" : `?pagina=${page - 1}`} className={pageLink} rel="prev">
          <Icon name="chevron-left" /> Mais recentes
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-muted-foreground">
        Página {page} de {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={`?pagina=${page + 1}`} className={cn(pageLink)} rel="next">
          Mais antigas <Icon name="chevron-right" />
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
