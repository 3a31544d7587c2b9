import type { ComponentProps } from "react";
import { cn } from "~/lib/utils";

export const fieldClass =
  "flex h-11 w-full rounded-md border border-input bg-white px-3 text-base text-foreground shadow-xs " +
  "placeholder:text-muted-foreground/80 focus-visible:border-ring disabled:cursor-not-allowed disabled:opacity-60 " +
  "aria-[invalid=true]:border-destructive md:text-sm";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(fieldClass, className)} {...props} />;
}
