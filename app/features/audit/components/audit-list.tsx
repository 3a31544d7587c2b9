import { Link } from "react-router";
import { Icon } from "~/components/ui/icon";
import { Table, Td, Th } from "~/components/ui/table";
import { formatDateTime } from "~/lib/format";
import { cn } from "~/lib/utils";
import type { AuditRow } from "../audit-log.server";

function Details({ lines }: { lines: string[] }) {
  if (lines.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="grid gap-0.5">
      {lines.map((line, index) => (
        <li key={index} className="break-words">
          {line}
        </li>
      ))}
    </ul>
  );
}

/** The audit trail: a table on wide screens, one card per entry on a phone. */
export function AuditList({ entries }: { entries: AuditRow[] }) {
  if (entries.length === 0) return <p className="p-10 text-center text-muted-foreground">Nenhuma alteração registrada ainda</p>;
  return (
    <>
      <div className="hidden lg:block">
        <Table>
          <thead>
            <tr>
              <Th>Quando</Th>
              <Th>Quem</Th>
              <Th>Ação</Th>
              <Th>Registro</Th>
              <Th>Detalhes</Th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <Td className="whitespace-nowrap">
                  <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                </Td>
                <Td className="max-w-56 truncate" title={entry.actor}>
                  {entry.actor}
                </Td>
                <Td className="whitespace-nowrap font-medium">{entry.actionLabel}</Td>
                <Td className="whitespace-nowrap">{entry.record}</Td>
                <Td className="text-muted-foreground">
                  <Details lines={entry.details} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      <ul className="grid divide-y divide-border lg:hidden">
        {entries.map((entry) => (
          <li key={entry.id} className="grid gap-1 p-4 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className="font-semibold">{entry.actionLabel}</span>
              <time dateTime={entry.at} className="text-xs text-muted-foreground">
                {formatDateTime(entry.at)}
              </time>
            </div>
            <p>{entry.record}</p>
            <p className="break-all text-muted-foreground">
              <span className="sr-only">Por </span>
              {entry.actor}
            </p>
            {entry.details.length > 0 && (
              <div className="text-muted-foreground">
                <Details lines={entry.details} />
              </div>
            )}
          </li>
        ))}
      </ul>
    </>
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
