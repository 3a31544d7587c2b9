import { redirect } from "react-router";
import { signOutEverywhere } from "~/features/auth/sessions.server";
import { SIGN_OUT_CLEARS } from "~/features/pwa/offline-key.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-sign-out";

/**
 * 'Sair': ends every session of the user on the server (the spec's global scope), then /auth.
 * Clear-Site-Data empties this browser's caches and storage for the site, the CRM's saved offline
 * pages among them, and unregisters the service worker (decision 029).
 */
export async function action({ request }: Route.ActionArgs) {
  const headers = await signOutEverywhere(await getRuntime(), request);
  headers.set("Clear-Site-Data", SIGN_OUT_CLEARS);
  throw redirect("/auth", { headers });
}

// Signing out changes state, so it is a POST only; a GET (a typed URL) goes back to the CRM.
export function loader() {
  throw redirect("/crm");
}
