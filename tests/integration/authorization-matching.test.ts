import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { lead_matches_sent, lead_profiles, outbox } from "~/db/schema";
import { action as leadAction } from "~/routes/crm-lead";
import { action as propertyLeadsAction, loader as propertyLeadsLoader } from "~/routes/crm-property-leads";
import { insertLead, insertProperty, makeRequest, settle } from "../helpers/factories";
import { ACTORS, type Actor, context, matrixRuntime, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * Issue 23's matching (docs/decisions/023): the lead page's new intents (profile_save,
 * profile_delete, match_send) and /crm/imoveis/:id/leads (loader and action), for the four kinds
 * of caller, with the rows counted before and after each write.
 */

async function run(work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await settle(work);
  } catch (error) {
    if (error && typeof error === "object" && "init" in error) return error;
    throw error;
  }
}

describe.each(DATABASE_KINDS)("matching authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;
  const db = () => matrix.runtime.db;

  const postLead = (leadId: string, actor: Actor, form: Record<string, string>) =>
    run(() => leadAction({ request: makeRequest(`/crm/leads/${leadId}`, { form, cookie: cookieOf(actor) }), params: { id: leadId }, context } as never));
  const profilesOf = async (leadId: string) => (await db().select({ n: count() }).from(lead_profiles).where(eq(lead_profiles.lead_id, leadId)))[0].n;
  const sentTo = async (leadId: string) => (await db().select({ n: count() }).from(lead_matches_sent).where(eq(lead_matches_sent.lead_id, leadId)))[0].n;
  const mailsOf = async (leadId: string) => (await db().select({ n: count() }).from(outbox).where(eq(outbox.lead_id, leadId)))[0].n;

  it.each(ACTORS)("lead page intent=profile_save for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime);
    expect(outcomeOf(await postLead(lead.id, actor, { intent: "profile_save", purpose: "venda", neighborhoods: "Capim Macio" }))).toEqual(PAGE_RULE[actor]);
    expect(await profilesOf(lead.id)).toBe(PAGE_RULE[actor].kind === "ok" ? 1 : 0);
  });

  it.each(ACTORS)("lead page intent=profile_save with bad input for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime);
    const expected = PAGE_RULE[actor].kind === "ok" ? { kind: "status", status: 400 } : PAGE_RULE[actor];
    expect(outcomeOf(await postLead(lead.id, actor, { intent: "profile_save", purpose: "venda", price_min: "500000", price_max: "100" }))).toEqual(expected);
    expect(await profilesOf(lead.id)).toBe(0);
  });

  it.each(ACTORS)("lead page intent=profile_delete for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime);
    const [profile] = await db().insert(lead_profiles).values({ lead_id: lead.id, purpose: "venda" }).returning();
    expect(outcomeOf(await postLead(lead.id, actor, { intent: "profile_delete", profile_id: profile.id }))).toEqual(PAGE_RULE[actor]);
    expect(await profilesOf(lead.id)).toBe(PAGE_RULE[actor].kind === "ok" ? 0 : 1);
  });

  it.each(ACTORS)("lead page intent=match_send (e-mail) for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime, { email: "comprador@teste.com" });
    const property = await insertProperty(matrix.runtime);
    const allowed = PAGE_RULE[actor].kind === "ok";
    expect(outcomeOf(await postLead(lead.id, actor, { intent: "match_send", channel: "email", property_id: property.id }))).toEqual(PAGE_RULE[actor]);
    expect(await sentTo(lead.id)).toBe(allowed ? 1 : 0);
    expect(await mailsOf(lead.id)).toBe(allowed ? 1 : 0);
  });

  it.each(ACTORS)("loader /crm/imoveis/:id/leads for %s", async (actor) => {
    const property = await insertProperty(matrix.runtime);
    const result = await run(() =>
      propertyLeadsLoader({ request: makeRequest(`/crm/imoveis/${property.id}/leads`, { cookie: cookieOf(actor) }), params: { id: property.id }, context } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    if (PAGE_RULE[actor].kind === "ok") expect((result as { listing: { id: string } }).listing.id).toBe(property.id);
  });

  it.each(ACTORS)("loader /crm/imoveis/:id/leads of an unknown id for %s", async (actor) => {
    const id = "nao-e-um-id";
    const result = await run(() => propertyLeadsLoader({ request: makeRequest(`/crm/imoveis/${id}/leads`, { cookie: cookieOf(actor) }), params: { id }, context } as never));
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor].kind === "ok" ? { kind: "status", status: 404 } : PAGE_RULE[actor]);
  });

  it.each(ACTORS)("action /crm/imoveis/:id/leads (WhatsApp) for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime);
    const property = await insertProperty(matrix.runtime);
    const result = await run(() =>
      propertyLeadsAction({
        request: makeRequest(`/crm/imoveis/${property.id}/leads`, { form: { intent: "match_send", channel: "whatsapp", lead_id: lead.id }, cookie: cookieOf(actor) }),
        params: { id: property.id },
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect(await sentTo(lead.id)).toBe(PAGE_RULE[actor].kind === "ok" ? 1 : 0);
    expect(await mailsOf(lead.id)).toBe(0);
  });
});
