import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log, properties, visits } from "~/db/schema";
import { AUDIT_PAGE_SIZE } from "~/features/audit/audit-log.server";
import { loader as auditLoader } from "~/routes/crm-audit";
import { loader as backupLoader } from "~/routes/crm-backup";
import { action as leadsAction } from "~/routes/crm-leads";
import { action as propertiesAction } from "~/routes/crm-properties";
import { createSignedInUser, insertLead, insertProperty, makeRequest, settle, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The audit trail: every CRM change leaves a row naming who, when, which record and what action
 * (for leads only the names of the fields that changed, never the values), written with the
 * change; admins read it on /crm/auditoria, newest first, a page at a time.
 */

const context = { cspNonce: "n", clientIp: "192.0.2.20" };

const propertyForm = (codigo: string, overrides: Record<string, string> = {}) => ({
  intent: "create",
  codigo,
  title: "Casa auditada em Ponta Negra",
  description: "Uma descrição longa o bastante.",
  type: "casa",
  purpose: "venda",
  status: "disponivel",
  price: "350.000,00",
  neighborhood: "Tirol",
  city: "Natal",
  state: "RN",
  ...overrides,
});

describe.each(DATABASE_KINDS)("audit trail on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;
  let corretor: TestUser;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    admin = await createSignedInUser(test.runtime, "admin");
    corretor = await createSignedInUser(test.runtime, "corretor");
  });
  afterAll(async () => {
    await test.stop();
  });

  const post = (run: typeof propertiesAction | typeof leadsAction, path: string, form: Record<string, string>, user: TestUser) =>
    settle(() => run({ request: makeRequest(path, { form, cookie: user.cookie }), params: {}, context } as never));

  const entriesFor = (entityId: string) =>
    test.runtime.db.select().from(audit_log).where(eq(audit_log.entity_id, entityId)).orderBy(audit_log.at);

  it("records a property's create, edit, featured toggle and delete with the actor and the changed fields", async () => {
    await post(propertiesAction, "/crm/imoveis", propertyForm("AUD-1"), corretor);
    const [row] = await test.runtime.db.select().from(properties).where(eq(properties.codigo, "AUD-1"));
    const updated = await post(propertiesAction, "/crm/imoveis", propertyForm("AUD-1", { intent: "update", id: row.id, price: "400.000,00", status: "em_negociacao" }), corretor);
    expect(updated).toMatchObject({ ok: true });
    await post(propertiesAction, "/crm/imoveis", { intent: "featured", id: row.id, featured: "true" }, admin);
    await post(propertiesAction, "/crm/imoveis", { intent: "delete", id: row.id }, admin);

    const entries = await entriesFor(row.id);
    expect(entries.map((entry) => [entry.action, entry.actor_id, entry.actor_email])).toEqual([
      ["property.create", corretor.id, corretor.email],
      ["property.update", corretor.id, corretor.email],
      ["property.featured", admin.id, admin.email],
      ["property.delete", admin.id, admin.email],
    ]);
    expect(entries.every((entry) => entry.entity === "property")).toBe(true);
    expect(entries[0].details).toEqual({ codigo: "AUD-1" });
    expect(entries[1].details).toEqual({ codigo: "AUD-1", fields: ["status", "price"] });
    expect(entries[2].details).toEqual({ codigo: "AUD-1", featured: true });
  });

  it("writes nothing when the change itself fails (a duplicate code)", async () => {
    await post(propertiesAction, "/crm/imoveis", propertyForm("AUD-DUP"), admin);
    const before = await test.runtime.db.select().from(audit_log);
    const result = await post(propertiesAction, "/crm/imoveis", propertyForm("AUD-DUP"), admin);
    expect((result as { init: { status: number } }).init.status).toBe(409);
    expect(await test.runtime.db.select().from(audit_log)).toHaveLength(before.length);
  });

  it("records lead changes by field name only, never the person's data", async () => {
    const form = { intent: "create", full_name: "Joana Auditada", phone: "(84) 97777-1234", email: "joana@exemplo.com", interest_type: "comprar", origin: "indicacao", status: "novo", notes: "Quer varanda gourmet" };
    await post(leadsAction, "/crm/leads", form, corretor);
    const [created] = await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "lead.create")).orderBy(desc(audit_log.at)).limit(1);
    expect(created.actor_id).toBe(corretor.id);
    const leadId = created.entity_id!;

    await post(leadsAction, "/crm/leads", { ...form, intent: "update", id: leadId, phone: "(84) 96666-4321", status: "em_atendimento", notes: "Ligar à tarde" }, corretor);
    await post(leadsAction, "/crm/leads", { intent: "delete", id: leadId }, admin);

    const entries = await entriesFor(leadId);
    expect(entries.map((entry) => entry.action)).toEqual(["lead.create", "lead.update", "lead.delete"]);
    expect(entries[1].details).toEqual({ fields: ["phone", "status", "notes"] });
    const stored = JSON.stringify(entries);
    for (const personal of ["Joana", "97777", "96666", "joana@exemplo.com", "varanda", "tarde"]) expect(stored).not.toContain(personal);
  });

  it("records a backup download", async () => {
    if (kind !== "pglite") return; // PostgreSQL backups are pg_dump's (501)
    const response = (await settle(() => backupLoader({ request: makeRequest("/crm/backup", { cookie: admin.cookie }), params: {}, context } as never))) as Response;
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const [entry] = await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "backup.download"));
    expect(entry.actor_id).toBe(admin.id);
  });

  it("lists the latest entries newest first, in Portuguese, a page at a time", async () => {
    const lead = await insertLead(test.runtime);
    // Explicit times a second apart (the embedded database's clock counts milliseconds, so rows
    // written in a loop can share one): these are the newest rows, the system's the very latest.
    const base = Date.now() + 60_000;
    await test.runtime.db.insert(audit_log).values(
      Array.from({ length: AUDIT_PAGE_SIZE + 5 }, (_, index) => ({
        at: new Date(base + index * 1000),
        actor_id: admin.id,
        actor_email: admin.email,
        action: "lead.update",
        entity: "lead",
        entity_id: lead.id,
        details: { fields: ["status"] },
      })),
    );
    await test.runtime.db.insert(audit_log).values({ at: new Date(base + 3_600_000), action: "property.featured", entity: "property", details: { codigo: "AUD-LAST", featured: false } });

    const first = (await auditLoader({ request: makeRequest("/crm/auditoria", { cookie: admin.cookie }), params: {}, context } as never)) as Awaited<ReturnType<typeof auditLoader>>;
    expect(first.page).toBe(1);
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.entries[0]).toMatchObject({ actor: "Sistema", actionLabel: "Destaque alterado", record: "Imóvel AUD-LAST", details: ["Destaque removido"] });
    expect(first.entries[1]).toMatchObject({ actor: "Usuário Teste", actorNote: admin.email, actionLabel: "Lead editado", record: "Lead Maria Teste", details: ["Campos alterados: status"] });
    const times = first.entries.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);

    const second = (await auditLoader({ request: makeRequest("/crm/auditoria?pagina=2", { cookie: admin.cookie }), params: {}, context } as never)) as Awaited<ReturnType<typeof auditLoader>>;
    expect(second.page).toBe(2);
    expect(second.entries.length).toBeGreaterThan(0);
    expect(second.entries.map((entry) => entry.id)).not.toContain(first.entries[0].id);
    expect(second.entries[0].at <= first.entries.at(-1)!.at).toBe(true);

    // A record deleted since says so: the trail itself holds no names.
    const deleted = await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "lead.delete"));
    const all = [...first.entries, ...second.entries];
    const pages = Math.ceil((await test.runtime.db.select().from(audit_log)).length / AUDIT_PAGE_SIZE);
    for (let pagina = 3; pagina <= pages; pagina++) {
      const more = (await auditLoader({ request: makeRequest(`/crm/auditoria?pagina=${pagina}`, { cookie: admin.cookie }), params: {}, context } as never)) as Awaited<ReturnType<typeof auditLoader>>;
      all.push(...more.entries);
    }
    const deletedEntry = all.find((entry) => entry.id === deleted[0].id)!;
    expect(deletedEntry.record).toBe("Lead (excluído)");
    expect(JSON.stringify(all)).not.toContain("Joana");

    // Nonsense page numbers are the first page, not an error.
    for (const pagina of ["abc", "-3", "0", "99999999999999"]) {
      const odd = (await auditLoader({ request: makeRequest(`/crm/auditoria?pagina=${pagina}`, { cookie: admin.cookie }), params: {}, context } as never)) as Awaited<ReturnType<typeof auditLoader>>;
      expect(odd.page).toBe(1);
    }
  });

  it("names visits, listings, invitations and people as they are called now, and says which were deleted", async () => {
    const { db } = test.runtime;
    const lead = await insertLead(test.runtime, { full_name: "Joaquim Visitante" });
    const property = await insertProperty(test.runtime, { codigo: "AUD-NOME", title: "Casa com título antigo" });
    const [visit] = await db.insert(visits).values({ lead_id: lead.id, property_id: property.id, scheduled_at: new Date("2026-11-25T17:30:00Z") }).returning();
    const [gone] = await db.insert(visits).values({ lead_id: lead.id, scheduled_at: new Date("2026-11-26T12:00:00Z") }).returning();
    const later = new Date(Date.now() + 7_200_000);
    await db.insert(audit_log).values([
      { at: later, actor_id: corretor.id, actor_email: corretor.email, action: "visit.update", entity: "visit", entity_id: visit.id, details: { fields: ["status"], status: "realizada" } },
      { at: new Date(later.getTime() + 1000), actor_id: corretor.id, actor_email: corretor.email, action: "visit.create", entity: "visit", entity_id: gone.id },
      { at: new Date(later.getTime() + 2000), actor_id: admin.id, actor_email: admin.email, action: "property.update", entity: "property", entity_id: property.id, details: { codigo: "AUD-NOME", fields: ["title"] } },
    ]);
    await db.delete(visits).where(eq(visits.id, gone.id));
    await db.update(properties).set({ title: "Casa com título novo" }).where(eq(properties.id, property.id));

    const page = (await auditLoader({ request: makeRequest("/crm/auditoria", { cookie: admin.cookie }), params: {}, context } as never)) as Awaited<ReturnType<typeof auditLoader>>;
    const [edited, created, done] = page.entries;
    expect(edited).toMatchObject({ actor: "Usuário Teste", actionLabel: "Imóvel editado", record: "Imóvel AUD-NOME — Casa com título novo", details: ["Campos alterados: título"] });
    expect(created).toMatchObject({ actionLabel: "Visita agendada", record: "Visita (excluída)" });
    expect(done).toMatchObject({
      actorNote: corretor.email,
      actionLabel: "Visita alterada",
      record: "Visita de Joaquim Visitante em 25/11/2026, 14:30",
      details: ["Campos alterados: status", "Status: Realizada"],
    });
    const text = page.entries.flatMap((entry) => [entry.actor, entry.actorNote ?? "", entry.actionLabel, entry.record, ...entry.details]);
    expect(text.filter((line) => /[{}]/.test(line))).toEqual([]);
  });

  it("is for admins only", async () => {
    const result = await settle(() => auditLoader({ request: makeRequest("/crm/auditoria", { cookie: corretor.cookie }), params: {}, context } as never));
    expect((result as Response).status).toBe(403);
  });
});
