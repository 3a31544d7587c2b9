import { type ComponentProps, useEffect, useRef, useState } from "react";
import { cn } from "~/lib/utils";

/**
 * Plain table styles for the CRM (wide screens; phones get cards instead). The wrapper is as wide
 * as its container but claims no width of its own (`w-0 min-w-full`): a wide table scrolls
 * inside it instead of stretching a grid or flex parent, and so the page, past the window;
 * `relative` keeps screen-reader-only text in cells from being placed (and scrolling) past it.
 */
export function Table({ className, ...props }: ComponentProps<"table">) {
  const strip = useRef<HTMLDivElement>(null);
  // A table that does scroll sideways takes keyboard focus, so arrow keys can scroll it too.
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = strip.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const check = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    check();
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={strip}
      tabIndex={scrolls ? 0 : undefined}
      role={scrolls ? "region" : undefined}
      aria-label={scrolls ? "Tabela com rolagem lateral" : undefined}
      className="relative w-0 min-w-full overflow-x-auto focus-visible:outline-2 focus-visible:outline-ring"
    >
      <table className={cn("w-full border-collapse text-sm", className)} {...props} />
    </div>
  );
}

export function Th({ className, ...props }: ComponentProps<"th">) {
  return <th scope="col" className={cn("whitespace-nowrap border-b border-border px-2.5 py-3 text-left font-semibold text-muted-foreground", className)} {...props} />;
}

export function Td({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("border-b border-border px-2.5 py-2.5 align-middle", className)} {...props} />;
}

/** For the actions column: stays in view at the right edge should the table ever need to scroll. */
export const STICKY_END = "sticky right-0 bg-white";
