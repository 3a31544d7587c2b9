import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { properties } from "~/db/schema";
import { getPublicProperty } from "~/features/properties/public-queries.server";
import { loader as crmFichaLoader } from "~/routes/crm-property-ficha";
import { loader as publicFichaLoader } from "~/routes/property-ficha";
import { ACTORS, type Actor, context, matrixRuntime, type Outcome, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The ficha do imóvel's two routes in the authorisation matrix (issue 22 item 6):
 * - /crm/imoveis/:id/ficha.pdf is a staff page's download: signed out → the sign-in page, no role
 *   → the site, corretor and admin → the PDF (of any listing, with its full address);
 * - /imoveis/:id/ficha.pdf follows the property page's visibility: what the public view holds, for
 *   everyone alike (a session neither adds the hidden address nor changes the answer), 404 otherwise.
 */

describe.each(DATABASE_KINDS)("ficha authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  let listing: Awaited<ReturnType<typeof insertProperty>>;

  beforeAll(async () => {
    listing = await insertProperty(matrix.runtime, {
      codigo: "AUT-FICHA-1",
      street_address: "Rua Secreta do Teste",
      address_number: "999",
      display_address: false,
    });
  });

  const crmAs = (actor: Actor, id: string) =>
    settle(() => crmFichaLoader({ request: makeRequest(`/crm/imoveis/${id}/ficha.pdf`, { cookie: matrix.cookieOf(actor) }), params: { id }, context } as never));
  const publicAs = (actor: Actor, id: string) =>
    settle(() =>
      publicFichaLoader({
        request: makeRequest(`/imoveis/${id}/ficha.pdf`, { cookie: matrix.cookieOf(actor) }),
        params: { id },
        context: { ...context, clientIp: `192.0.2.${ACTORS.indexOf(actor) + 20}` },
      } as never),
    );

  it.each(ACTORS)("CRM ficha for %s: as a staff page", async (actor) => {
    const result = await crmAs(actor, listing.id);
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    if (PAGE_RULE[actor].kind === "ok") {
      const response = result as Response;
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("cache-control")).toBe("private, no-cache");
    } else {
      // Nothing of the listing in a refusal.
      expect((result as Response).headers.get("content-type") ?? "").not.toBe("application/pdf");
    }
  });

  const etags = new Map<Actor, string | null>();
  it.each(ACTORS)("public ficha for %s: the same PDF as for everyone, no cookie set", async (actor) => {
    const result = await publicAs(actor, listing.id);
    expect(outcomeOf(result)).toEqual({ kind: "ok" } satisfies Outcome);
    const response = result as Response;
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("set-cookie")).toBeNull();
    etags.set(actor, response.headers.get("etag"));
    expect(new Set(etags.values()).size).toBe(1);
  });

  it.each(ACTORS)("public ficha for %s: 404 where the property page has nothing to show", async (actor) => {
    const gone = await insertProperty(matrix.runtime);
    await matrix.runtime.db.delete(properties).where(eq(properties.id, gone.id));
    for (const id of [gone.id, "00000000-0000-4000-8000-000000000001", "x"]) {
      expect(await getPublicProperty(matrix.runtime.db, id)).toBeNull();
      expect(outcomeOf(await publicAs(actor, id))).toEqual({ kind: "status", status: 404 } satisfies Outcome);
    }
  });
});
