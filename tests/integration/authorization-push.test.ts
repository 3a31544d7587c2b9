import crypto from "node:crypto";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { push_preferences, push_subscriptions } from "~/db/schema";
import { action as accountAction, loader as accountLoader } from "~/routes/crm-account";
import { ACTORS, type Actor, context, matrixRuntime, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { createSignedInUser, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix for push alerts (issue 25): 'Minha conta''s loader and its three push
 * intents, for an anonymous visitor, a user without a role, a corretor and an admin, with hand-made
 * posts and database counts before and after. Each acts on the caller's own devices only.
 */

function deviceForm() {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    intent: "push-subscribe",
    endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomBytes(12).toString("base64url")}`,
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: crypto.randomBytes(16).toString("base64url"),
    userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile",
  };
}

describe.each(DATABASE_KINDS)("push alerts authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;
  const act = (actor: Actor, form: Record<string, string>) =>
    settle(() => accountAction({ request: makeRequest("/crm/conta", { form, cookie: cookieOf(actor) }), params: {}, context } as never));
  const devices = async () => (await matrix.runtime.db.select({ n: count() }).from(push_subscriptions))[0].n;
  const allowed = (actor: Actor) => PAGE_RULE[actor].kind === "ok";

  it.each(ACTORS)("loader /crm/conta (with the push card's data) for %s", async (actor) => {
    const result = await settle(() => accountLoader({ request: makeRequest("/crm/conta", { cookie: cookieOf(actor) }), params: {}, context } as never));
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    if (allowed(actor)) expect((result as { push: { publicKey: string } }).push.publicKey).toMatch(/^[\w-]{87}$/);
  });

  it.each(ACTORS)("action push-subscribe for %s", async (actor) => {
    const before = await devices();
    expect(outcomeOf(await act(actor, deviceForm()))).toEqual(PAGE_RULE[actor]);
    expect((await devices()) - before).toBe(allowed(actor) ? 1 : 0);
  });

  it.each(ACTORS)("action push-remove for %s (someone else's device stays)", async (actor) => {
    const owner = await createSignedInUser(matrix.runtime, "corretor");
    const form = deviceForm();
    await settle(() => accountAction({ request: makeRequest("/crm/conta", { form, cookie: owner.cookie }), params: {}, context } as never));
    const [theirs] = await matrix.runtime.db.select().from(push_subscriptions).where(eq(push_subscriptions.endpoint, form.endpoint));
    const before = await devices();
    const result = await act(actor, { intent: "push-remove", id: theirs.id });
    expect(outcomeOf(result)).toEqual(allowed(actor) ? { kind: "status", status: 404 } : PAGE_RULE[actor]);
    expect(await devices()).toBe(before);
    if (allowed(actor)) {
      const mine = deviceForm();
      await act(actor, mine);
      const [row] = await matrix.runtime.db.select().from(push_subscriptions).where(eq(push_subscriptions.endpoint, mine.endpoint));
      expect(outcomeOf(await act(actor, { intent: "push-remove", id: row.id }))).toEqual({ kind: "ok" });
      expect(await devices()).toBe(before);
    }
  });

  it.each(ACTORS)("action push-preferences for %s", async (actor) => {
    const result = await act(actor, { intent: "push-preferences", kinds: "novo_lead", reminderEmail: "on" });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const userId = actor === "anonymous" ? null : matrix.users[actor].id;
    const rows = userId ? await matrix.runtime.db.select().from(push_preferences).where(eq(push_preferences.user_id, userId)) : [];
    expect(rows.length).toBe(allowed(actor) ? 1 : 0);
  });
});
