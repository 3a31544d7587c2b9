import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lead_matches_sent, lead_profiles, leads, outbox, properties, property_status_events } from "~/db/schema";
import type { TimelineItem } from "~/features/leads/timeline.server";
import { leadsForProperty, matchesForProfile } from "~/features/matching/match.server";
import { newMatches } from "~/features/matching/new-matches.server";
import { profileSchema } from "~/features/matching/profile-schema";
import { loadProfile, saveLeadProfile } from "~/features/matching/profiles.server";
import { softScore } from "~/features/matching/reasons";
import { anonymizeLeads } from "~/features/privacy/anonymize.server";
import { loadPerson } from "~/features/privacy/person.server";
import { action as leadAction, loader as leadLoader } from "~/routes/crm-lead";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { createSignedInUser, insertLead, insertProperty, makeRequest, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * Issue 23, items 1–2 (docs/decisions/023): profiles and matching both ways. Listings and
 * profiles with known fields are seeded; the matches must equal an independent SQL query (written
 * without the module's `fits` predicate: raw neighbourhood names compared through unaccent, and
 * the criteria spelled out), for every profile and every listing.
 */

const context = { cspNonce: "n", clientIp: "192.0.2.61" };
type Page = Awaited<ReturnType<typeof leadLoader>>;

async function run(work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await settle(work);
  } catch (error) {
    if (error && typeof error === "object" && "init" in error) return error;
    throw error;
  }
}

const rowsOf = (result: unknown) => ((result as { rows?: unknown[] }).rows ?? (result as unknown[])) as Record<string, unknown>[];

describe.each(DATABASE_KINDS)("lead matching on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;
  const db = () => test.runtime.db;
  const actor = { id: "corretor-id", email: "corretor@teste.com", name: "Corretora Teste" };

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "corretor");
    // A market of known listings in neighbourhoods no other test uses (accents on purpose).
    const base = { description: "Imóvel de teste para o matching de perfis." };
    const seed = [
      { codigo: "MT-1", title: "Apto 3 quartos Matchópolis", type: "apartamento", purpose: "venda", price: 590000, bedrooms: 3, suites: 1, parking_spaces: 2, area: 90, neighborhood: "Matchópolis", features: ["piscina", "varanda"], accepts_financing: true },
      { codigo: "MT-2", title: "Apto 2 quartos Matchópolis", type: "apartamento", purpose: "venda", price: 450000, bedrooms: 2, suites: 0, parking_spaces: 1, area: 65, neighborhood: "matchopolis", features: ["varanda"], accepts_financing: null },
      { codigo: "MT-3", title: "Apto caro Matchópolis", type: "apartamento", purpose: "venda", price: 900000, bedrooms: 4, suites: 2, parking_spaces: 3, area: 150, neighborhood: "Matchópolis", features: ["piscina"], accepts_financing: true },
      { codigo: "MT-4", title: "Casa Vila Teste", type: "casa", purpose: "venda", price: 580000, bedrooms: 3, suites: 1, parking_spaces: 2, area: 140, neighborhood: "Vila Teste do Match", features: [], accepts_financing: false },
      { codigo: "MT-5", title: "Apto vendido Matchópolis", type: "apartamento", purpose: "venda", price: 500000, bedrooms: 3, suites: 1, parking_spaces: 2, area: 90, neighborhood: "Matchópolis", features: ["piscina"], accepts_financing: true, status: "vendido" },
      { codigo: "MT-6", title: "Apto aluguel Matchópolis", type: "apartamento", purpose: "aluguel", price: 2500, bedrooms: 3, suites: 1, parking_spaces: 1, area: 80, neighborhood: "Matchópolis", features: ["piscina"], accepts_financing: null },
    ] as const;
    for (const listing of seed) await insertProperty(test.runtime, { ...base, ...listing, features: [...listing.features] } as never);
    const profiles = [
      { purpose: "venda", types: ["apartamento"], neighborhoods: "Matchopolis", price_max: "600000", min_bedrooms: "3", features: ["piscina", "varanda"] },
      { purpose: "venda", neighborhoods: "MATCHÓPOLIS, Vila Teste do Match", price_min: "500000", price_max: "1000000", accepts_financing: "on" },
      { purpose: "venda", types: ["casa"], min_parking: "2", min_area: "100" },
      { purpose: "aluguel", neighborhoods: "Matchópolis", price_max: "3000" },
    ];
    for (const [index, form] of profiles.entries()) {
      const lead = await insertLead(test.runtime, { full_name: `Comprador Match ${index + 1}`, email: `comprador${index + 1}@teste.com` });
      const result = await saveLeadProfile(db(), actor, lead.id, null, profileSchema.parse(form));
      expect(result.ok).toBe(true);
    }
    // A closed lead with a profile everything fits: never offered listings by the reverse match.
    const lost = await insertLead(test.runtime, { full_name: "Comprador Perdido", status: "perdido" });
    await saveLeadProfile(db(), actor, lost.id, null, profileSchema.parse({ purpose: "venda" }));
  });
  afterAll(async () => {
    await test?.stop();
  });

  /** The independent statement of the hard criteria. */
  const independentPairs = async () =>
    rowsOf(
      await db().execute(sql`
        select lp.id as profile_id, lp.lead_id, p.id as property_id
        from lead_profiles lp
        join properties p on p.status = 'disponivel' and p.purpose = lp.purpose
        where (lp.price_max is null or p.price <= lp.price_max)
          and (lp.types = '{}' or p.type = any(lp.types))
          and (lp.neighborhoods = '{}' or exists (
            select 1 from unnest(lp.neighborhoods) as wanted where unaccent(lower(wanted)) = unaccent(lower(p.neighborhood))))
          and (lp.accepts_financing = false or coalesce(p.accepts_financing, false))`),
    ).map((row) => ({ profile: String(row.profile_id), lead: String(row.lead_id), property: String(row.property_id) }));

  it("a profile's listings equal the independent query, scored as reasons.ts scores them, best first", async () => {
    const pairs = await independentPairs();
    const allProfiles = await db().select({ id: lead_profiles.id }).from(lead_profiles);
    let seen = 0;
    for (const { id } of allProfiles) {
      const profile = (await loadProfile(db(), id))!;
      const matches = await matchesForProfile(db(), profile, 10_000);
      const expected = pairs.filter((pair) => pair.profile === id).map((pair) => pair.property);
      expect(matches.map((match) => match.id).sort()).toEqual([...new Set(expected)].sort());
      for (let i = 1; i < matches.length; i++) expect(matches[i - 1].score).toBeGreaterThanOrEqual(matches[i].score);
      for (const match of matches) {
        const [row] = await db().select().from(properties).where(eq(properties.id, match.id));
        expect(match.score).toBe(softScore(profile, { ...row, features: row.features }));
        // Every hard criterion shown holds.
        expect(match.reasons.filter((reason) => reason.hard && !reason.ok)).toEqual([]);
      }
      seen += matches.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("the seeded profiles match exactly the listings one expects", async () => {
    const byCodigo = async (leadName: string) => {
      const [lead] = await db().select({ id: leads.id }).from(leads).where(eq(leads.full_name, leadName));
      const [row] = await db().select({ id: lead_profiles.id }).from(lead_profiles).where(eq(lead_profiles.lead_id, lead.id));
      const matches = await matchesForProfile(db(), (await loadProfile(db(), row.id))!, 10_000);
      return matches.map((match) => match.codigo).filter((codigo) => codigo.startsWith("MT-"));
    };
    // 3-bedroom apartment in Matchópolis up to 600 mil: MT-1 (all soft criteria) before MT-2 (2 quartos, no piscina).
    expect(await byCodigo("Comprador Match 1")).toEqual(["MT-1", "MT-2"]);
    // Accepts financing only: MT-1 and MT-3 (MT-2 does not say, MT-4 says no, MT-5 is sold).
    expect((await byCodigo("Comprador Match 2")).sort()).toEqual(["MT-1", "MT-3"]);
    expect(await byCodigo("Comprador Match 4")).toEqual(["MT-6"]);
  });

  it("a listing's leads equal the independent query (open leads only, each once)", async () => {
    const pairs = await independentPairs();
    const open = new Set(
      (await db().select({ id: leads.id }).from(leads).where(sql`${leads.status} not in ('convertido', 'perdido')`)).map((row) => row.id),
    );
    const listings = await db().select({ id: properties.id, codigo: properties.codigo }).from(properties).where(sql`${properties.codigo} like 'MT-%'`);
    for (const listing of listings) {
      const found = (await leadsForProperty(db(), listing.id, 10_000))!;
      const expected = new Set(pairs.filter((pair) => pair.property === listing.id && open.has(pair.lead)).map((pair) => pair.lead));
      expect(found.leads.map((lead) => lead.leadId).sort(), listing.codigo).toEqual([...expected].sort());
    }
    const mt1 = listings.find((listing) => listing.codigo === "MT-1")!;
    const names = (await leadsForProperty(db(), mt1.id))!.leads.map((lead) => lead.full_name);
    expect(names).toContain("Comprador Match 1");
    expect(names).not.toContain("Comprador Perdido");
  });

  it("a newly published listing, and one whose price dropped, show their leads on the dashboard", async () => {
    const dashboard = async () =>
      ((await run(() => dashboardLoader({ request: makeRequest("/crm", { cookie: staff.cookie }), params: {}, context } as never))) as {
        matches: { total: number; items: { leadId: string; codigo: string; why: string }[] };
      }).matches;
    const before = await dashboard();
    const [lead1] = await db().select({ id: leads.id }).from(leads).where(eq(leads.full_name, "Comprador Match 3"));
    const fresh = await insertProperty(test.runtime, { codigo: "MT-NEW", type: "casa", purpose: "venda", price: 700000, parking_spaces: 2, area: 200, neighborhood: "Outro Bairro" });
    const now = await dashboard();
    expect(now.total).toBeGreaterThan(before.total);
    expect(now.items).toContainEqual(expect.objectContaining({ leadId: lead1.id, codigo: "MT-NEW", why: "published" }));
    expect((await newMatches(db(), new Date())).total).toBe(now.total);

    // An old listing over the buyer's ceiling: nothing new; once cheaper, it is a new match.
    const [lead4] = await db().select({ id: leads.id }).from(leads).where(eq(leads.full_name, "Comprador Match 4"));
    const old = await insertProperty(test.runtime, { codigo: "MT-OLD", type: "apartamento", purpose: "aluguel", price: 3500, neighborhood: "Matchópolis" });
    await db().update(property_status_events).set({ at: sql`now() - interval '30 days'` }).where(eq(property_status_events.property_id, old.id));
    expect((await dashboard()).items.some((item) => item.codigo === "MT-OLD")).toBe(false);
    await db().update(properties).set({ price: 2900 }).where(eq(properties.id, old.id));
    expect((await newMatches(db(), new Date(), 7, 100)).items).toContainEqual(expect.objectContaining({ leadId: lead4.id, codigo: "MT-OLD", why: "price" }));
    // Sent already: no longer 'new'.
    await db().insert(lead_matches_sent).values({ lead_id: lead1.id, property_id: fresh.id, channel: "whatsapp" });
    expect((await newMatches(db(), new Date(), 7, 100)).items.some((item) => item.leadId === lead1.id && item.codigo === "MT-NEW")).toBe(false);
  });

  it("the lead page saves a profile, shows matches with reasons, and sends one by e-mail: one outbox row and a timeline entry", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Beatriz Perfil", email: "beatriz@teste.com" });
    const post = async (form: Record<string, string>) =>
      run(() => leadAction({ request: makeRequest(`/crm/leads/${lead.id}`, { form, cookie: staff.cookie }), params: { id: lead.id }, context } as never));
    const load = async () => (await run(() => leadLoader({ request: makeRequest(`/crm/leads/${lead.id}`, { cookie: staff.cookie }), params: { id: lead.id }, context } as never))) as Page;

    const bad = (await post({ intent: "profile_save", purpose: "venda", features: "heliponto" })) as { init: { status: number }; data: { message: string } };
    expect(bad.init.status).toBe(400);
    expect(bad.data.message).toBe("Característica inválida: escolha da lista");

    expect(await post({ intent: "profile_save", purpose: "venda", types: "apartamento", neighborhoods: "Matchópolis", price_max: "600000", min_bedrooms: "3", features: "piscina" })).toMatchObject({ ok: true });
    let page = await load();
    expect(page.matching.profiles).toHaveLength(1);
    const mt1 = page.matching.profiles[0].matches.find((match) => match.codigo === "MT-1")!;
    expect(mt1.reasons.map((reason) => `${reason.text} ${reason.ok ? "✓" : "✗"}`)).toEqual(["Venda ✓", "Apartamento ✓", "Matchópolis ✓", "R$ 590 mil ✓", "3 quartos ✓", "Piscina ✓"]);
    expect(mt1.whatsappUrl).toMatch(/^https:\/\/wa\.me\/5584999990000\?text=/);
    expect(decodeURIComponent(mt1.whatsappUrl!)).toContain(`/imoveis/${mt1.id}`);

    expect(await post({ intent: "match_send", channel: "email", property_id: mt1.id })).toMatchObject({ ok: true });
    const mails = await db().select().from(outbox).where(eq(outbox.lead_id, lead.id));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: "lead-match", to_address: "beatriz@teste.com", status: "pending" });
    expect(mails[0].text_body).toContain(`/imoveis/${mt1.id}`);
    expect(await db().select().from(lead_matches_sent).where(and(eq(lead_matches_sent.lead_id, lead.id), eq(lead_matches_sent.property_id, mt1.id)))).toHaveLength(1);

    page = await load();
    expect(page.matching.sent).toEqual([expect.objectContaining({ codigo: "MT-1", channel: "email", actor: "Usuário Teste" })]);
    expect(page.matching.profiles[0].matches.find((match) => match.id === mt1.id)?.sentAt).not.toBeNull();
    const entries = page.timeline.filter((item): item is Extract<TimelineItem, { kind: "match" }> => item.kind === "match");
    expect(entries).toEqual([expect.objectContaining({ channel: "email", property: { codigo: "MT-1", title: "Apto 3 quartos Matchópolis" } })]);

    // A lead with no e-mail: refused with a message, nothing queued.
    const noMail = await insertLead(test.runtime, { full_name: "Sem Email" });
    const refused = (await run(() =>
      leadAction({ request: makeRequest(`/crm/leads/${noMail.id}`, { form: { intent: "match_send", channel: "email", property_id: mt1.id }, cookie: staff.cookie }), params: { id: noMail.id }, context } as never),
    )) as { init: { status: number } };
    expect(refused.init.status).toBe(400);
    expect(await db().select().from(outbox).where(eq(outbox.lead_id, noMail.id))).toHaveLength(0);
  });

  it("suggests a profile from the property the lead asked about (±15%, its bedrooms)", async () => {
    const property = await insertProperty(test.runtime, { type: "apartamento", purpose: "venda", neighborhood: "Matchópolis", price: 400000, bedrooms: 2 });
    const lead = await insertLead(test.runtime, { property_id: property.id });
    const page = (await run(() => leadLoader({ request: makeRequest(`/crm/leads/${lead.id}`, { cookie: staff.cookie }), params: { id: lead.id }, context } as never))) as Page;
    expect(page.matching.suggestion).toMatchObject({ purpose: "venda", types: ["apartamento"], neighborhoods: ["Matchópolis"], price_min: 340000, price_max: 460000, min_bedrooms: 2 });
  });

  it("profiles are personal data: in the LGPD export, gone when the lead is anonymised or deleted", async () => {
    const lead = await insertLead(test.runtime, { full_name: "Carla Privacidade", email: "carla@teste.com", phone: "(84) 98765-1234" });
    await saveLeadProfile(db(), actor, lead.id, null, profileSchema.parse({ purpose: "venda", neighborhoods: "Matchópolis" }));
    const person = (await loadPerson(db(), lead.id))!;
    expect(person.profiles).toEqual([expect.objectContaining({ lead_id: lead.id, summary: "Venda · Matchópolis" })]);
    await anonymizeLeads(db(), actor, lead.id, [lead.id]);
    expect(await db().select().from(lead_profiles).where(eq(lead_profiles.lead_id, lead.id))).toHaveLength(0);

    const other = await insertLead(test.runtime);
    await saveLeadProfile(db(), actor, other.id, null, profileSchema.parse({ purpose: "aluguel" }));
    await db().delete(leads).where(eq(leads.id, other.id));
    expect(await db().select().from(lead_profiles).where(eq(lead_profiles.lead_id, other.id))).toHaveLength(0);
  });
});
