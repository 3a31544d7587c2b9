import { useEffect, useRef } from "react";
import type { FieldErrors, FieldValues } from "react-hook-form";
import type { FetcherWithComponents } from "react-router";
import { toast } from "~/components/ui/toaster";

/** What the CRM's actions answer: shown as a toast (spec §8). */
/** `conflict`: saved, but with a warning to read (a visit clashing with another, decision 031). */
export type ActionAnswer = { ok: boolean; message: string; conflict?: boolean };

/** The first failing field's message, in the form's order (spec §5: first issue as a toast). */
export function firstErrorMessage<T extends FieldValues>(errors: FieldErrors<T>, order: readonly (keyof T)[], fallback: string): string {
  for (const field of order) {
    const message = errors[field]?.message;
    if (message) return String(message);
  }
  return fallback;
}

/**
 * Fills a dialog's form when it opens, or switches to another record — not when the page's data
 * refreshes underneath it (live updates): what the broker is typing must stay.
 */
export function useFillOnOpen(open: boolean, recordKey: string, fill: () => void) {
  const filledFor = useRef<string | null>(null);
  const latestFill = useRef(fill);
  latestFill.current = fill;
  useEffect(() => {
    const key = open ? recordKey : null;
    if (key !== null && key !== filledFor.current) latestFill.current();
    filledFor.current = key;
  }, [open, recordKey]);
}

/** Toasts an action's answer once when it arrives; runs onSuccess after a good one. */
export function useAnswerToast(fetcher: Pick<FetcherWithComponents<ActionAnswer>, "state" | "data">, onSuccess?: () => void) {
  const handled = useRef<ActionAnswer | undefined>(undefined);
  const latestSuccess = useRef(onSuccess);
  latestSuccess.current = onSuccess;
  useEffect(() => {
    const answer = fetcher.data;
    if (fetcher.state !== "idle" || !answer || handled.current === answer) return;
    handled.current = answer;
    if (answer.ok) {
      // A warning stays until read: it says something to act on.
      if (answer.conflict) toast.warning(answer.message, { duration: Infinity });
      else if (answer.message) toast.success(answer.message);
      latestSuccess.current?.();
    } else {
      toast.error(answer.message);
    }
  }, [fetcher.state, fetcher.data]);
}
