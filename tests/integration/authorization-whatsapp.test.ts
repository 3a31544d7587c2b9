import { and, count, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit_log, lead_events, leads, whatsapp_clicks } from "~/db/schema";
import { resetTapLimits } from "~/features/whatsapp/redirect.server";
import { action as dashboardAction } from "~/routes/crm-dashboard";
import { loader as whatsappLoader } from "~/routes/whatsapp";
import { ACTORS, type Actor, context, matrixRuntime, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * Issue 25 (decision 028) in the authorisation matrix: the dashboard's 'Registrar conversa de
 * WhatsApp' (staff only, like 'Novo Lead': the page rule, since the dashboard is a page) and the
 * public /whatsapp redirect (anyone; only a visitor without a session is recorded). Then what a
 * staff member's conversation becomes: a lead with origin 'whatsapp', status 'novo', the listing,
 * its timeline's 'created' row naming who, an audit row; bad input a 400 with the spec's message.
 */

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

describe.each(DATABASE_KINDS)("WhatsApp channel authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;
  let listing: { id: string; codigo: string };
  let rental: { id: string };

  beforeAll(async () => {
    listing = await insertProperty(matrix.runtime, { codigo: "WAM-1", purpose: "venda" });
    rental = await insertProperty(matrix.runtime, { codigo: "WAM-2", purpose: "aluguel" });
  });
  beforeEach(() => resetTapLimits());

  const register = (actor: Actor, form: Record<string, string>) =>
    settle(() => dashboardAction({ request: makeRequest("/crm?index", { form, cookie: cookieOf(actor) }), params: {}, context } as never));
  const leadCount = async () => (await matrix.runtime.db.select({ n: count() }).from(leads).where(eq(leads.origin, "whatsapp")))[0].n;
  type Answer = { ok: boolean; message: string; leadId?: string };
  // A success is the plain object; a refusal goes through data() with its status.
  const answer = (result: unknown) =>
    (result && typeof result === "object" && "init" in result ? result : { data: result, init: null }) as { data: Answer; init: { status?: number } | null };

  it.each(ACTORS)("action whatsapp-lead on /crm (dashboard) for %s", async (actor) => {
    const before = await leadCount();
    const result = await register(actor, { intent: "whatsapp-lead", full_name: `Conversa ${actor}`, phone: "(84) 98888-1111", property_id: listing.id });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect((await leadCount()) - before).toBe(PAGE_RULE[actor].kind === "ok" ? 1 : 0);
  });

  it.each(ACTORS)("loader /whatsapp for %s: a redirect to wa.me, recorded only without a session", async (actor) => {
    await matrix.runtime.db.delete(whatsapp_clicks);
    const result = await settle(() =>
      whatsappLoader({ request: makeRequest("/whatsapp?pagina=imovel&imovel=WAM-1", { cookie: cookieOf(actor), headers: { "User-Agent": BROWSER } }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual({ kind: "redirect", location: expect.stringMatching(/^https:\/\/wa\.me\/\d+$/) });
    const [{ n }] = await matrix.runtime.db.select({ n: count() }).from(whatsapp_clicks);
    expect(n).toBe(actor === "anonymous" ? 1 : 0);
  });

  it("creates the lead as the lead form does: origin whatsapp, status novo, the listing, timeline and audit naming the actor", async () => {
    const result = answer(await register("corretor", { intent: "whatsapp-lead", full_name: "  Joana Pires ", phone: "(84) 99876-5432", property_id: rental.id }));
    expect(result.data).toEqual({ ok: true, message: "Conversa registrada como lead (origem WhatsApp).", leadId: expect.any(String) });
    const id = result.data.leadId!;
    const [lead] = await matrix.runtime.db.select().from(leads).where(eq(leads.id, id));
    expect(lead).toMatchObject({ full_name: "Joana Pires", phone: "(84) 99876-5432", origin: "whatsapp", status: "novo", interest_type: "alugar", property_id: rental.id, email: null });
    const [created] = await matrix.runtime.db.select().from(lead_events).where(and(eq(lead_events.lead_id, id), eq(lead_events.kind, "created")));
    expect(created.actor_id).toBe(matrix.users.corretor.id);
    const audits = await matrix.runtime.db.select().from(audit_log).where(and(eq(audit_log.entity_id, id), eq(audit_log.action, "lead.create")));
    expect(audits).toHaveLength(1);
    expect(audits[0].actor_id).toBe(matrix.users.corretor.id);
    // Nothing personal in the audit row.
    expect(JSON.stringify(audits[0].details)).not.toMatch(/Joana|98765/);

    // Without a listing: interest 'comprar', no listing.
    const bare = answer(await register("admin", { intent: "whatsapp-lead", full_name: "Caio Lima", phone: "(84) 98765-1234", property_id: "" }));
    const [withoutListing] = await matrix.runtime.db.select().from(leads).where(eq(leads.id, bare.data.leadId!));
    expect(withoutListing).toMatchObject({ origin: "whatsapp", status: "novo", interest_type: "comprar", property_id: null });
  });

  it("answers bad input with 400 and the spec's messages, creating nothing", async () => {
    const before = await leadCount();
    const cases: [Record<string, string>, string][] = [
      [{ full_name: "A", phone: "(84) 99999-0000" }, "Nome deve ter pelo menos 2 caracteres"],
      [{ full_name: "x".repeat(101), phone: "(84) 99999-0000" }, "Nome muito longo"],
      [{ full_name: "Ana\u0000", phone: "(84) 99999-0000" }, "Nome contém caracteres inválidos"],
      [{ full_name: "Ana Souza", phone: "123" }, "Telefone inválido"],
      [{ full_name: "Ana Souza", phone: "(84) 9999-00000x" }, "Telefone inválido. Use formato (84) 99999-9999"],
      [{ full_name: "Ana Souza", phone: "(84) 99999-0000", property_id: "não-é-um-id" }, "Imóvel inválido"],
      [{ full_name: "Ana Souza", phone: "(84) 99999-0000", property_id: "00000000-0000-4000-8000-000000000000" }, "Imóvel não encontrado. Escolha outro ou deixe sem imóvel."],
    ];
    for (const [form, message] of cases) {
      const result = answer(await register("corretor", { intent: "whatsapp-lead", ...form }));
      expect(result.init?.status, message).toBe(400);
      expect(result.data).toEqual({ ok: false, message });
    }
    const unknown = answer(await register("corretor", { intent: "apagar-tudo" }));
    expect(unknown.init?.status).toBe(400);
    expect(await leadCount()).toBe(before);
  });
});
