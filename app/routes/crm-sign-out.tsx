import { redirect } from "react-router";
import { signOutEverywhere } from "~/features/auth/sessions.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-sign-out";

/** 'Sair': ends every session of the user on the server (the spec's global scope), then /auth. */
export async function action({ request }: Route.ActionArgs) {
  const headers = await signOutEverywhere(await getRuntime(), request);
  throw redirect("/auth", { headers });
}

// Signing out changes state, so it is a POST only; a GET (a typed URL) goes back to the CRM.
export function loader() {
  throw redirect("/crm");
}
