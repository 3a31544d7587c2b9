import type { ComponentProps } from "react";
import { cn } from "~/lib/utils";
import { fieldClass } from "./input";
import { Icon } from "~/components/ui/icon";

/**
 * A styled native <select>: on a phone it opens the system picker, it works before the page's
 * JavaScript arrives, and it costs no bytes (see docs/decisions/003-javascript-budget.md).
 */
export function NativeSelect({ className, children, ...props }: ComponentProps<"select">) {
  return (
    <div className="relative">
      <select className={cn(fieldClass, "appearance-none pr-9", className)} {...props}>
        {children}
      </select>
      <Icon name="chevron-down" className="pointer-events-none absolute right-3 top-1/2 -translate-y-1/2 text-muted-foreground" />
    </div>
  );
}
