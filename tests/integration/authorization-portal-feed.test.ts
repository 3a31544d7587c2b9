import { beforeAll, describe, expect, it } from "vitest";
import { loadPortalKeys } from "~/features/portals/portal-keys.server";
import { loader as feedLoader } from "~/routes/portal-feed";
import { ACTORS, type Actor, context, matrixRuntime, type Outcome, outcomeOf } from "../helpers/authorization";
import { makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The portals' listings feed (GET /feeds/vrsync/:file, issue 13) in the authorisation matrix. The
 * portals send no cookie: the token in the file name is the only key. Every caller — anonymous,
 * signed in without a role, corretor, admin — gets the feed with the right token and a plain 404
 * with any other (never 401/403, which would tell a guessed address from a revoked one), and a
 * session changes nothing in the answer.
 */

describe.each(DATABASE_KINDS)("portal feed authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  let token: string;

  beforeAll(async () => {
    token = (await loadPortalKeys(matrix.runtime.db)).feedToken;
  });

  const feedAs = (actor: Actor, file: string) =>
    settle(() =>
      feedLoader({ request: makeRequest(`/feeds/vrsync/${file}`, { cookie: matrix.cookieOf(actor) }), params: { file }, context } as never),
    );

  const etags = new Map<Actor, string | null>();

  it.each(ACTORS)("the right token for %s: the feed, the same for everyone, no cookie set", async (actor) => {
    const result = await feedAs(actor, `${token}.xml`);
    expect(outcomeOf(result)).toEqual({ kind: "ok" } satisfies Outcome);
    const response = result as Response;
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await response.text()).toContain("<ListingDataFeed");
    etags.set(actor, response.headers.get("etag"));
    expect(new Set(etags.values()).size).toBe(1);
  });

  it.each(ACTORS)("a wrong token for %s: 404, never 401 or 403", async (actor) => {
    for (const file of [`${"A".repeat(32)}.xml`, `${token}.ics`, token, `${token.slice(0, -1)}.xml`]) {
      const result = await feedAs(actor, file);
      expect(outcomeOf(result)).toEqual({ kind: "status", status: 404 } satisfies Outcome);
      expect(await (result as Response).text()).not.toContain(token);
    }
  });
});
