import { toast } from "~/components/ui/toaster";
import { firstIssueMessage } from "~/lib/form-data";
import type * as LeadSchemas from "../schema";

/**
 * What the public lead forms (contact, visit booking) do before they post: check the fields in the
 * browser with the same schema the server uses, and say the first problem.
 */

let loaded: typeof LeadSchemas | undefined;

/**
 * The schemas (and zod/mini) arrive with the first focus or submit, not with the page; then they
 * are at hand without an await (the contact form opens the chat tab within the click).
 */
export function loadLeadSchemas(): typeof LeadSchemas | Promise<typeof LeadSchemas> {
  return loaded ?? import("../schema").then((module) => (loaded = module));
}

type Checked<T> = { success: true; data: T } | { success: false; error: { issues: readonly { message: string }[] } };

/**
 * The form's values checked by `schema`, or null after showing the first problem. One error toast
 * per form (`errorToast` is its id): a new problem replaces it, a corrected form takes it away.
 */
export function checkForm<T>(schema: { safeParse(data: unknown): Checked<T> }, form: HTMLFormElement, errorToast: string): T | null {
  const parsed = schema.safeParse(Object.fromEntries(new FormData(form)));
  if (!parsed.success) {
    toast.error(firstIssueMessage(parsed.error), { id: errorToast });
    return null;
  }
  toast.dismiss(errorToast);
  return parsed.data;
}
