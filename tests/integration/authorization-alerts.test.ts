import { describe, expect, it } from "vitest";
import { action as manageAction, loader as manageLoader } from "~/routes/alerts-manage";
import { action as subscribeAction, loader as subscribeLoader } from "~/routes/alerts-subscribe";
import { ACTORS, context, matrixRuntime, outcomeOf, PUBLIC_RULE } from "../helpers/authorization";
import { makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix of 'Avise-me' (decision 025): public routes with no session at all.
 * The form's post answers the same whoever posts it; the alerts page opens by its link's token
 * alone, so a signed-in staff member without the token gets the same 404 as anyone.
 */
const run = (work: () => Promise<unknown>) =>
  settle(work).catch((error: unknown) => {
    if (error && typeof error === "object" && "init" in error) return error;
    throw error;
  });
const statusOf = (result: unknown) => (result && typeof result === "object" && "init" in result ? ((result as { init: { status?: number } }).init?.status ?? 200) : outcomeOf(result).kind === "ok" ? 200 : (result as Response).status);

describe.each(DATABASE_KINDS)("'Avise-me' authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const TOKEN = "a".repeat(64);

  it.each(ACTORS)("loader /alertas for %s", async (actor) => {
    const result = await run(async () => subscribeLoader({ request: makeRequest("/alertas", { cookie: matrix.cookieOf(actor) }), params: {}, context } as never));
    expect(outcomeOf(result)).toEqual(PUBLIC_RULE[actor]);
  });

  it.each(ACTORS)("action /alertas (bad input: 400, never 500) for %s", async (actor) => {
    const result = await run(() =>
      subscribeAction({ request: makeRequest("/alertas", { form: { email: "x", q: "" }, cookie: matrix.cookieOf(actor) }), params: {}, context } as never),
    );
    expect(statusOf(result)).toBe(400);
  });

  it.each(ACTORS)("loader and action /alertas/:token with an unknown token: 404 for %s", async (actor) => {
    for (const token of [TOKEN, "curto", "../../etc"]) {
      const page = await run(() => manageLoader({ request: makeRequest(`/alertas/${token}`, { cookie: matrix.cookieOf(actor) }), params: { token }, context } as never));
      expect(statusOf(page)).toBe(404);
      const post = await run(() =>
        manageAction({ request: makeRequest(`/alertas/${token}`, { form: { intent: "confirm" }, cookie: matrix.cookieOf(actor) }), params: { token }, context } as never),
      );
      expect(statusOf(post)).toBe(404);
    }
  });
});
