import { describe, expect, it } from "vitest";
import { loader as favoritesLoader } from "~/routes/favorites";
import { ACTORS, context, matrixRuntime, outcomeOf, PUBLIC_RULE } from "../helpers/authorization";
import { insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix of /favoritos (issue 13): a public page. Anyone may load it, signed in
 * or not, and what it returns depends only on the ids asked for — never on who asks.
 */
describe.each(DATABASE_KINDS)("favourites authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);

  it.each(ACTORS)("loader /favoritos (the page) for %s", async (actor) => {
    const result = await settle(() =>
      favoritesLoader({ request: makeRequest("/favoritos", { cookie: matrix.cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(PUBLIC_RULE[actor]);
  });

  it.each(ACTORS)("loader /favoritos?ids=… (the cards) for %s", async (actor) => {
    const property = await insertProperty(matrix.runtime, { broker_partner: "Parceiro Secreto" });
    const result = await settle(() =>
      favoritesLoader({ request: makeRequest(`/favoritos?ids=${property.id}`, { cookie: matrix.cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(PUBLIC_RULE[actor]);
    expect((result as { properties: { id: string }[] }).properties.map((card) => card.id)).toEqual([property.id]);
    // The public projection, whoever asks: staff get no more on the site than a visitor.
    expect(JSON.stringify(result)).not.toContain("Parceiro Secreto");
  });
});
