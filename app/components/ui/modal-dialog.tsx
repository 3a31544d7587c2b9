import { type ReactNode, useEffect, useId, useRef } from "react";
import { Icon } from "./icon";

/**
 * A modal on the browser's own <dialog>: focus moves in and stays in, Esc closes, the page
 * behind is inert, and it costs no library (public pages' JS budget, decision 003).
 */
export function ModalDialog({
  open,
  onClose,
  title,
  description,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      // A click on the backdrop (the dialog element itself, outside its content) closes it.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      // Only the body scrolls: the title and the close button stay in view. `open:flex`, not
      // `flex`: a closed <dialog> must keep the browser's display: none.
      className="m-auto max-h-[min(90dvh,calc(100%-2rem))] w-[calc(100%-2rem)] max-w-lg flex-col overflow-hidden rounded-lg bg-white p-0 text-foreground shadow-2xl backdrop:bg-black/60 open:flex"
    >
      <div className="flex shrink-0 items-start justify-between gap-4 border-b border-border px-5 pb-3 pt-5 sm:px-6 sm:pt-6">
        <div className="min-w-0">
          <h2 id={titleId} className="text-xl font-bold">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="mt-1 text-sm text-muted-foreground">
              {description}
            </div>
          )}
        </div>
        <button
          type="button"
          onClick={onClose}
          className="-mr-2 -mt-1 inline-flex size-10 shrink-0 items-center justify-center rounded-md hover:bg-muted"
        >
          <Icon name="x" className="size-5" label="Fechar" />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-5 pb-5 pt-4 sm:px-6 sm:pb-6">{children}</div>
    </dialog>
  );
}
