import { Dialog as DialogPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/lib/utils";
import { Icon } from "./icon";

/** shadcn-style dialog on Radix (CRM only: public pages use the native <dialog>, decision 003). */
export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

/**
 * The dialog's frame: the title bar and the `footer` (a form's buttons) stay put and only the body
 * between them scrolls, so a field scrolled or tabbed into view is never under the buttons, on a
 * 360×640 phone too. A footer's submit button sits outside the <form>: give the form an id and
 * the button `form={id}` (Enter in a field still submits).
 */
export function DialogContent({
  className,
  children,
  title,
  description,
  footer,
  aside,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & {
  title: string;
  description?: ReactNode;
  footer?: ReactNode;
  /** Stays in the fixed title bar under the title (a long form's progress and section links). */
  aside?: ReactNode;
}) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/60" />
      <DialogPrimitive.Content
        className={cn(
          "fixed inset-x-0 bottom-0 top-auto z-50 flex max-h-[95dvh] flex-col overflow-hidden rounded-t-xl bg-white shadow-2xl outline-none",
          "sm:inset-auto sm:left-1/2 sm:top-1/2 sm:w-[calc(100%-2rem)] sm:max-w-2xl sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl",
          className,
        )}
        {...props}
      >
        <div className="flex shrink-0 flex-wrap items-start justify-between gap-x-4 border-b border-border px-5 py-4">
          <div className="min-w-0 flex-1">
            <DialogPrimitive.Title className="text-lg font-bold">{title}</DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="mt-0.5 text-sm text-muted-foreground">{description}</DialogPrimitive.Description>
            ) : (
              <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
            )}
          </div>
          <DialogPrimitive.Close className="-mr-2 inline-flex size-10 shrink-0 items-center justify-center rounded-md hover:bg-muted">
            <Icon name="x" className="size-5" label="Fechar" />
          </DialogPrimitive.Close>
          {aside && <div className="mt-2 w-full min-w-0">{aside}</div>}
        </div>
        {/* `relative`: screen-reader-only text in the body is placed inside it, never past the
            frame, where scrolling a field into view would scroll the whole frame (header and all). */}
        <div className="relative min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 py-4">{children}</div>
        {footer && (
          <div className="flex shrink-0 flex-col-reverse gap-2 border-t border-border bg-white px-5 py-3 sm:flex-row sm:justify-end">{footer}</div>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
