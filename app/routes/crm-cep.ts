import { data } from "react-router";
import { requireStaff } from "~/features/auth/guard.server";
import { lookupCep } from "~/features/properties/map/cep-lookup.server";
import { getEnv } from "~/lib/env.server";
import type { Route } from "./+types/crm-cep";

/**
 * /crm/cep/:cep — the property form's 'Buscar CEP' (issue 22, item 4): the street, neighbourhood
 * and city of a CEP from the service CEP_LOOKUP_URL names (off when unset). Staff only; a bad CEP
 * is 400, an unknown one 404, a silent or broken service 502, each with a message in Portuguese.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { api: true });
  const answer = await lookupCep(params.cep ?? "", getEnv().CEP_LOOKUP_URL);
  const headers = { "Cache-Control": "private, no-store" };
  if (!answer.ok) return data({ message: answer.message }, { status: answer.status, headers });
  return data(answer.address, { headers });
}
