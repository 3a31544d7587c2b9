import { Link } from "react-router";
import { cn } from "~/lib/utils";
import { buttonClass } from "./button";
import { Icon } from "./icon";

/**
 * The pages around the current one: the first, the last, and one on each side of the current
 * page, with gaps ("…") between; every page when there are at most seven.
 */
export function pageWindow(page: number, pageCount: number): (number | "gap")[] {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, index) => index + 1);
  const shown = new Set([1, pageCount, page - 1, page, page + 1].filter((value) => value >= 1 && value <= pageCount));
  // Near an end, show three in a row so the bar keeps its length.
  if (page <= 3) [2, 3, 4].forEach((value) => shown.add(value));
  if (page >= pageCount - 2) [pageCount - 3, pageCount - 2, pageCount - 1].forEach((value) => shown.add(value));
  const sorted = [...shown].sort((a, b) => a - b);
  const items: (number | "gap")[] = [];
  sorted.forEach((value, index) => {
    if (index > 0 && value - sorted[index - 1] > 1) items.push("gap");
    items.push(value);
  });
  return items;
}

const pageLinkClass = "min-w-10 px-3";

/**
 * Page links: plain links (a crawler follows them and they work before JavaScript arrives), the
 * current page marked with aria-current. Nothing is rendered for a single page.
 */
export function Pagination({
  page,
  pageCount,
  hrefFor,
  className,
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
  className?: string;
}) {
  if (pageCount <= 1) return null;
  const previous = page > 1 ? page - 1 : null;
  const next = page < pageCount ? page + 1 : null;
  return (
    <nav aria-label="Paginação" className={cn("flex flex-col items-center gap-2", className)}>
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          {previous ? (
            <Link to={hrefFor(previous)} rel="prev" className={buttonClass("outline")}>
              <Icon name="chevron-left" />
              <span className="hidden sm:inline">Anterior</span>
              <span className="sr-only sm:hidden">Página anterior</span>
            </Link>
          ) : (
            <span aria-hidden="true" className={cn(buttonClass("outline"), "pointer-events-none")}>
              {/* Muted, not faded: half-opaque text fails the contrast check (axe). */}
              <Icon name="chevron-left" className="text-muted-foreground" />
              <span className="hidden text-muted-foreground sm:inline">Anterior</span>
            </span>
          )}
        </li>
        {pageWindow(page, pageCount).map((item, index) =>
          item === "gap" ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-muted-foreground">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                to={hrefFor(item)}
                aria-current={item === page ? "page" : undefined}
                aria-label={`Página ${item}`}
                className={cn(buttonClass(item === page ? "default" : "ghost"), pageLinkClass)}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          {next ? (
            <Link to={hrefFor(next)} rel="next" className={buttonClass("outline")}>
              <span className="hidden sm:inline">Próxima</span>
              <span className="sr-only sm:hidden">Próxima página</span>
              <Icon name="chevron-right" />
            </Link>
          ) : (
            <span aria-hidden="true" className={cn(buttonClass("outline"), "pointer-events-none")}>
              <span className="hidden text-muted-foreground sm:inline">Próxima</span>
              <Icon name="chevron-right" className="text-muted-foreground" />
            </span>
          )}
        </li>
      </ul>
      <p className="text-sm text-muted-foreground">
        Página {page} de {pageCount}
      </p>
    </nav>
  );
}
