import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { audit_log, neighbourhood_texts } from "~/db/schema";
import { action as crmAction, loader as crmLoader } from "~/routes/crm-neighbourhoods";
import { loader as pageLoader } from "~/routes/neighbourhood";
import { loader as indexLoader } from "~/routes/neighbourhoods";
import { ACTORS, context, matrixRuntime, outcomeOf, PAGE_RULE, PUBLIC_RULE } from "../helpers/authorization";
import { insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix of the neighbourhood pages (decision 021): /crm/bairros (staff: admin
 * and corretor) — its loader and its action, called with real requests by an anonymous visitor, a
 * signed-in user without a role (a 'cliente'), a corretor and an admin, with the texts and audit
 * rows counted before and after each write — and the public pages, open to everyone.
 */

describe.each(DATABASE_KINDS)("neighbourhood authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;

  beforeAll(async () => {
    await insertProperty(matrix.runtime, { neighborhood: "Capim Macio", price: 650000 });
  });

  const counts = async () => {
    const db = matrix.runtime.db;
    const [[texts], [audits]] = await Promise.all([
      db.select({ n: count() }).from(neighbourhood_texts),
      db.select({ n: count() }).from(audit_log).where(eq(audit_log.action, "neighbourhood.text")),
    ]);
    return { texts: texts.n, audits: audits.n };
  };

  it.each(ACTORS)("loader /crm/bairros for %s", async (actor) => {
    await matrix.runtime.db.insert(neighbourhood_texts).values({ slug: "capim-macio", text: "Texto interno de teste" }).onConflictDoNothing();
    const result = await settle(() => crmLoader({ request: makeRequest("/crm/bairros", { cookie: cookieOf(actor) }), params: {}, context } as never));
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    // A refused caller gets a redirect, never the CRM's rows (who edited, when).
    if (actor === "anonymous" || actor === "noRole") expect(result).toBeInstanceOf(Response);
    else expect((result as { rows: { slug: string }[] }).rows.map((row) => row.slug)).toEqual(["capim-macio"]);
  });

  it.each(ACTORS)("action /crm/bairros (a hand-made form post) for %s", async (actor) => {
    await matrix.runtime.db.delete(neighbourhood_texts);
    const before = await counts();
    const result = await settle(() =>
      crmAction({
        request: makeRequest("/crm/bairros", { form: { slug: "capim-macio", text: `Texto salvo por ${actor}` }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const after = await counts();
    const allowed = actor === "corretor" || actor === "admin" ? 1 : 0;
    expect(after.texts - before.texts).toBe(allowed);
    expect(after.audits - before.audits).toBe(allowed);
  });

  it.each(ACTORS)("the public pages answer %s", async (actor) => {
    const page = await settle(() =>
      pageLoader({ request: makeRequest("/imoveis/bairro/capim-macio", { cookie: cookieOf(actor) }), params: { slug: "capim-macio" }, context } as never),
    );
    expect(outcomeOf(page)).toEqual(PUBLIC_RULE[actor]);
    expect(outcomeOf(await settle(() => indexLoader()))).toEqual(PUBLIC_RULE[actor]);
  });
});
