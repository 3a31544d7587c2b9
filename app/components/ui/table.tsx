import type { ComponentProps } from "react";
import { cn } from "~/lib/utils";

/** Plain table styles for the CRM (wide screens; phones get cards instead). */
export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    <div className="overflow-x-auto">
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
