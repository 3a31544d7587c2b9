import { type FormEvent, useEffect, useRef } from "react";
import { useNavigation, useSubmit } from "react-router";
import { toast } from "~/components/ui/toaster";
import type * as accountSchemas from "~/features/auth/schema";
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

/**
 * A form posted to `action` whose answer leads away from `action`'s page (the action redirected)
 * succeeded: says so while the next page loads. A refusal stays on the page and says nothing here.
 */
export function useRedirectToast(action: string, message: string) {
  const navigation = useNavigation();
  useEffect(() => {
    if (navigation.state === "loading" && navigation.formAction?.startsWith(action) && navigation.location.pathname !== action) {
      toast.success(message);
    }
  }, [navigation, action, message]);
}

type SafeParser = { safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly { message: string }[] } } };
type Schemas = typeof accountSchemas;
export type AccountSchemaName = { [K in keyof Schemas]: Schemas[K] extends SafeParser ? K : never }[keyof Schemas];

/** The account forms' schemas, and zod with them: a chunk of their own, loaded on demand. */
export const loadAccountSchemas = () => import("~/features/auth/schema");

/**
 * Checks a form with its schema in the browser (the schema, and zod, load on demand) and submits
 * it only when it passes; the first problem shows as a toast. The action checks again. It submits
 * as a navigation, or through `fetcher` when one is given.
 */
export function useCheckedSubmit(schemaName: AccountSchemaName, fetcher?: { submit(form: HTMLFormElement): Promise<void> }) {
  const submit = useSubmit();
  return async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const schema: SafeParser = (await loadAccountSchemas())[schemaName];
    const parsed = schema.safeParse(formDataToObject(new FormData(form)));
    if (!parsed.success) {
      toast.error(firstIssueMessage(parsed.error));
      return;
    }
    await (fetcher ? fetcher.submit(form) : submit(form));
  };
}
