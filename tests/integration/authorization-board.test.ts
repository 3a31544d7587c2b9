import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { audit_log, lead_events, leads } from "~/db/schema";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { action as leadsAction, loader as leadsLoader } from "~/routes/crm-leads";
import { insertLead, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";
import { ACTORS, context, matrixRuntime, outcomeOf, PAGE_RULE } from "../helpers/authorization";

/**
 * The authorisation matrix for the pipeline board and the dashboard's working-day lists: the
 * board's page (/crm/leads?vista=quadro), its move (intent=status, as a hand-made form post and as
 * the board's JSON) and the dashboard, for an anonymous visitor, a user without a role, a
 * corretor and an admin — with the lead's status, its timeline and the audit log read before and
 * after every move.
 */

describe.each(DATABASE_KINDS)("pipeline board authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;


  const stateOf = async (id: string) => {
    const db = matrix.runtime.db;
    const [[lead], [events], [audits]] = await Promise.all([
      db.select({ status: leads.status }).from(leads).where(eq(leads.id, id)),
      db.select({ n: count() }).from(lead_events).where(eq(lead_events.lead_id, id)),
      db.select({ n: count() }).from(audit_log).where(eq(audit_log.entity_id, id)),
    ]);
    return { status: lead.status, events: events.n, audits: audits.n };
  };

  const pages = [
    { name: "/crm/leads?vista=quadro", run: leadsLoader, path: "/crm/leads?vista=quadro" },
    { name: "/crm/leads?vista=quadro&busca=maria", run: leadsLoader, path: "/crm/leads?vista=quadro&busca=maria" },
    { name: "/crm (dashboard lists)", run: dashboardLoader, path: "/crm" },
  ];

  for (const page of pages) {
    it.each(ACTORS)(`loader ${page.name} for %s`, async (actor) => {
      const result = await settle(() =>
        (page.run as (args: unknown) => Promise<unknown>)({ request: makeRequest(page.path, { cookie: cookieOf(actor) }), params: {}, context }),
      );
      expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    });
  }

  it.each(ACTORS)("action move a card (intent=status, a hand-made form post) for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime, { full_name: `Matriz ${actor}` });
    const before = await stateOf(lead.id);
    const result = await settle(() =>
      leadsAction({
        request: makeRequest("/crm/leads", { form: { intent: "status", id: lead.id, status: "convertido" }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const after = await stateOf(lead.id);
    const allowed = PAGE_RULE[actor].kind === "ok";
    expect(after.status).toBe(allowed ? "convertido" : "novo");
    // Allowed: one "status" row in the timeline and one audit row; refused: nothing at all.
    expect(after.events - before.events).toBe(allowed ? 1 : 0);
    expect(after.audits - before.audits).toBe(allowed ? 1 : 0);
  });

  it.each(ACTORS)("action move a card (intent=status, the board's JSON) for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime, { status: "em_atendimento" });
    const headers: Record<string, string> = { "Content-Type": "application/json", Origin: "http://localhost:3000" };
    const cookie = cookieOf(actor);
    if (cookie) headers.Cookie = cookie;
    const result = await settle(() =>
      leadsAction({
        request: new Request("http://localhost:3000/crm/leads", {
          method: "POST",
          headers,
          body: JSON.stringify({ intent: "status", id: lead.id, status: "perdido", lost_reason: "Preço", lost_note: "Matriz" }),
        }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const allowed = PAGE_RULE[actor].kind === "ok";
    expect((await stateOf(lead.id)).status).toBe(allowed ? "perdido" : "em_atendimento");
    const [row] = await matrix.runtime.db.select({ reason: leads.lost_reason, note: leads.lost_note }).from(leads).where(eq(leads.id, lead.id));
    expect(row).toEqual(allowed ? { reason: "Preço", note: "Matriz" } : { reason: null, note: null });
  });

  // Issue 24: without a reason the move is refused for everyone — by the role check first (nothing
  // about the lead is told to those without one), by the reason's check for staff.
  it.each(ACTORS)("action move a card to 'perdido' without a reason (intent=status) for %s", async (actor) => {
    const lead = await insertLead(matrix.runtime, { status: "novo" });
    const before = await stateOf(lead.id);
    const result = await settle(() =>
      leadsAction({
        request: makeRequest("/crm/leads", { form: { intent: "status", id: lead.id, status: "perdido" }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor].kind === "ok" ? { kind: "status", status: 400 } : PAGE_RULE[actor]);
    expect(await stateOf(lead.id)).toEqual(before);
  });
});
