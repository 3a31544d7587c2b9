import { type FormEvent, useEffect, useRef } from "react";
import { useSubmit } from "react-router";
import { toast } from "~/components/ui/toaster";
import { firstIssueMessage, formDataToObject } from "~/lib/form-data";

/** What the account pages' actions answer when something is wrong: shown once, as a toast. */
export type ActionError = { error?: string; at?: number };

export function useErrorToast(actionData: ActionError | undefined) {
  const toastedAt = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (actionData?.error && toastedAt.current !== actionData.at) {
      toastedAt.current = actionData.at;
      toast.error(actionData.error);
    }
  }, [actionData]);
}

type SafeParser = { safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly { message: string }[] } } };

/**
 * Checks a form with its schema in the browser (the schema, and zod, load on demand) and submits
 * it only when it passes; the first problem shows as a toast. The action checks again.
 */
export function useCheckedSubmit(loadSchema: () => Promise<SafeParser>) {
  const submit = useSubmit();
  return async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const schema = await loadSchema();
    const parsed = schema.safeParse(formDataToObject(new FormData(form)));
    if (!parsed.success) {
      toast.error(firstIssueMessage(parsed.error));
      return;
    }
    await submit(form);
  };
}
