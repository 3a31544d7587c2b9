import { data } from "react-router";
import { getRuntime, type Runtime } from "~/features/runtime/handle.server";

/** What the account pages' loaders and actions share (/auth and the pages its e-mails link to). */

/** The token of the e-mail link that opened the page (?token=…); "" when there is none. */
export function linkToken(request: Request): string {
  return new URL(request.url).searchParams.get("token") ?? "";
}

/** A page an e-mail link opens: the address the link is for, or that the link is dead. */
export async function linkPage(request: Request, describe: (runtime: Runtime, token: string) => Promise<{ email: string } | null>) {
  const token = linkToken(request);
  const found = await describe(await getRuntime(), token);
  return found ? { valid: true as const, email: found.email, token } : { valid: false as const };
}

/**
 * An action's refusal: the message the page shows as a toast, once (`at` tells two answers with
 * the same message apart; see useErrorToast), with whatever else the page needs to know.
 */
export function refusal<Extra extends object = Record<never, never>>(message: string, status: number, extra?: Extra) {
  return data({ error: message, ...(extra as Extra), at: Date.now() }, { status });
}
