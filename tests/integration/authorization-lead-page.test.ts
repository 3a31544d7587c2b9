import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { audit_log, lead_events, leads } from "~/db/schema";
import { action as leadAction, loader as leadLoader } from "~/routes/crm-lead";
import { insertLead, makeRequest, settle } from "../helpers/factories";
import { ACTORS, type Actor, context, matrixRuntime, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix of the lead page (/crm/leads/:id): its loader and every action intent,
 * called with real requests (hand-made form posts) by the four kinds of caller, with the database
 * counted before and after each write.
 */

/** A thrown data(…, { status }) is no Response: settle() passes it through, this catches it. */
async function run(work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await settle(work);
  } catch (error) {
    if (error && typeof error === "object" && "init" in error) return error;
    throw error;
  }
}

describe.each(DATABASE_KINDS)("lead page authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;


  const counts = async (leadId: string) => {
    const db = matrix.runtime.db;
    const [[events], [audits]] = await Promise.all([
      db.select({ n: count() }).from(lead_events).where(eq(lead_events.lead_id, leadId)),
      db.select({ n: count() }).from(audit_log).where(eq(audit_log.entity_id, leadId)),
    ]);
    return { events: events.n, audits: audits.n };
  };

  const post = (leadId: string, actor: Actor, form: Record<string, string>) =>
    run(() =>
      leadAction({
        request: makeRequest(`/crm/leads/${leadId}`, { form, cookie: cookieOf(actor) }),
        params: { id: leadId },
        context,
      } as never),
    );

  it.each(ACTORS)("loader /crm/leads/:id for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime);
    const result = await run(() =>
      leadLoader({ request: makeRequest(`/crm/leads/${lead.id}`, { cookie: cookieOf(actor) }), params: { id: lead.id }, context } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    if (PAGE_RULE[actor].kind === "ok") expect((result as { lead: { id: string } }).lead.id).toBe(lead.id);
  });

  it.each(ACTORS)("loader /crm/leads/:id of an unknown or malformed id for %s", async (actor) => {
    for (const id of ["5f0e8a52-1111-4111-8111-000000000000", "nao-e-um-id"]) {
      const result = await run(() =>
        leadLoader({ request: makeRequest(`/crm/leads/${id}`, { cookie: cookieOf(actor) }), params: { id }, context } as never),
      );
      // Staff learn it does not exist; everyone else is sent away before the lookup.
      expect(outcomeOf(result)).toEqual(PAGE_RULE[actor].kind === "ok" ? { kind: "status", status: 404 } : PAGE_RULE[actor]);
    }
  });

  it.each(ACTORS)("action intent=status for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime, { status: "novo" });
    const before = await counts(lead.id);
    expect(outcomeOf(await post(lead.id, actor, { intent: "status", status: "em_atendimento" }))).toEqual(PAGE_RULE[actor]);
    const allowed = PAGE_RULE[actor].kind === "ok";
    const [row] = await matrix.runtime.db.select({ status: leads.status }).from(leads).where(eq(leads.id, lead.id));
    expect(row.status).toBe(allowed ? "em_atendimento" : "novo");
    const after = await counts(lead.id);
    expect(after.events - before.events).toBe(allowed ? 1 : 0);
    expect(after.audits - before.audits).toBe(allowed ? 1 : 0);
  });

  it.each(ACTORS)("action intent=status to 'perdido' with its reason for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime, { status: "em_atendimento" });
    const before = await counts(lead.id);
    const result = await post(lead.id, actor, { intent: "status", status: "perdido", lost_reason: "Desistiu", lost_note: "Nota da matriz" });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const allowed = PAGE_RULE[actor].kind === "ok";
    const [row] = await matrix.runtime.db.select({ status: leads.status, reason: leads.lost_reason }).from(leads).where(eq(leads.id, lead.id));
    expect(row).toEqual(allowed ? { status: "perdido", reason: "Desistiu" } : { status: "em_atendimento", reason: null });
    const after = await counts(lead.id);
    expect(after.events - before.events).toBe(allowed ? 1 : 0);
    expect(after.audits - before.audits).toBe(allowed ? 1 : 0);
    // Without a reason: refused for everyone, staff with the reason's 400.
    const refused = await post(lead.id, actor, { intent: "status", status: "perdido", lost_reason: "" });
    expect(outcomeOf(refused)).toEqual(allowed ? { kind: "status", status: 400 } : PAGE_RULE[actor]);
  });

  it.each(ACTORS)("action intent=note for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime);
    const before = await counts(lead.id);
    expect(outcomeOf(await post(lead.id, actor, { intent: "note", body: "Ligou pedindo fotos da cozinha." }))).toEqual(PAGE_RULE[actor]);
    const allowed = PAGE_RULE[actor].kind === "ok";
    const after = await counts(lead.id);
    expect(after.events - before.events).toBe(allowed ? 1 : 0);
    expect(after.audits - before.audits).toBe(allowed ? 1 : 0);
  });

  it.each(ACTORS)("action intent=next_contact for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime);
    const before = await counts(lead.id);
    expect(outcomeOf(await post(lead.id, actor, { intent: "next_contact", next_contact_at: "2027-01-15T09:30" }))).toEqual(PAGE_RULE[actor]);
    const allowed = PAGE_RULE[actor].kind === "ok";
    const [row] = await matrix.runtime.db.select({ next: leads.next_contact_at }).from(leads).where(eq(leads.id, lead.id));
    expect(row.next?.toISOString() ?? null).toBe(allowed ? "2027-01-15T12:30:00.000Z" : null);
    const after = await counts(lead.id);
    expect(after.events - before.events).toBe(allowed ? 1 : 0);
    expect(after.audits - before.audits).toBe(allowed ? 1 : 0);
  });

  it.each(ACTORS)("action with an unknown intent for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime);
    const before = await counts(lead.id);
    const expected = PAGE_RULE[actor].kind === "ok" ? { kind: "status", status: 400 } : PAGE_RULE[actor];
    expect(outcomeOf(await post(lead.id, actor, { intent: "delete" }))).toEqual(expected);
    expect(await counts(lead.id)).toEqual(before);
  });
});
