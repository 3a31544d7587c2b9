import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { owners, property_captacao, property_owners } from "~/db/schema";
import { loader as documentLoader } from "~/routes/crm-captacao-document";
import { action as ownerAction, loader as ownerLoader } from "~/routes/crm-owner";
import { loader as exportLoader } from "~/routes/crm-owner-export";
import { action as ownersAction, loader as ownersLoader } from "~/routes/crm-owners";
import { ACTORS, ADMIN_API_RULE, ADMIN_PAGE_RULE, type Actor, API_RULE, context, matrixRuntime, outcomeOf, PAGE_RULE } from "../helpers/authorization";
import { insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix for the owners' pages (decision 024): every loader, action intent and
 * resource route for an anonymous visitor, a user without a role, a corretor and an admin, with
 * hand-made posts and the database checked after each.
 */

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n");
const allowed = (rule: Record<Actor, { kind: string }>, actor: Actor) => rule[actor].kind === "ok";

describe.each(DATABASE_KINDS)("owners authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;
  let propertyId: string;
  let codigo: string;

  beforeAll(async () => {
    const property = await insertProperty(matrix.runtime);
    propertyId = property.id;
    codigo = property.codigo;
  });

  const db = () => matrix.runtime.db;
  const newOwner = async (linked = false) => {
    const [row] = await db().insert(owners).values({ full_name: "Dono de Teste" }).returning();
    if (linked) {
      await db().insert(property_owners).values({ owner_id: row.id, property_id: propertyId }).onConflictDoNothing();
      await db().insert(property_captacao).values({ property_id: propertyId, authorization_type: "exclusiva" }).onConflictDoNothing();
    }
    return row.id;
  };
  const ownerCount = async () => (await db().select({ n: count() }).from(owners))[0].n;
  const act = (id: string, actor: Actor, form: Record<string, string>) =>
    settle(() => ownerAction({ request: makeRequest(`/crm/proprietarios/${id}`, { form, cookie: cookieOf(actor) }), params: { id }, context } as never));

  for (const search of ["", "?q=dono"]) {
    it.each(ACTORS)(`loader /crm/proprietarios${search} for %s`, async (actor) => {
      const result = await settle(() => ownersLoader({ request: makeRequest(`/crm/proprietarios${search}`, { cookie: cookieOf(actor) }), params: {}, context } as never));
      expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    });
  }

  it.each(ACTORS)("loader /crm/proprietarios/:id for %s", async (actor) => {
    const id = await newOwner();
    const result = await settle(() => ownerLoader({ request: makeRequest(`/crm/proprietarios/${id}`, { cookie: cookieOf(actor) }), params: { id }, context } as never));
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
  });

  it.each(ACTORS)("action create (list page) for %s", async (actor) => {
    const before = await ownerCount();
    const result = await settle(() =>
      ownersAction({ request: makeRequest("/crm/proprietarios", { form: { intent: "create", full_name: "Nova Dona" }, cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    const ok = allowed(PAGE_RULE, actor);
    if (ok) expect((result as Response).headers.get("Location")).toMatch(/^\/crm\/proprietarios\//);
    else expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect((await ownerCount()) - before).toBe(ok ? 1 : 0);
  });

  it.each(ACTORS)("action delete (list page) for %s", async (actor) => {
    const id = await newOwner();
    const result = await settle(() =>
      ownersAction({ request: makeRequest("/crm/proprietarios", { form: { intent: "delete", id }, cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect((await db().select().from(owners).where(eq(owners.id, id))).length).toBe(allowed(PAGE_RULE, actor) ? 0 : 1);
  });

  it.each(ACTORS)("action update for %s", async (actor) => {
    const id = await newOwner();
    const result = await act(id, actor, { intent: "update", full_name: "Nome Alterado" });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const [row] = await db().select().from(owners).where(eq(owners.id, id));
    expect(row.full_name).toBe(allowed(PAGE_RULE, actor) ? "Nome Alterado" : "Dono de Teste");
  });

  it.each(ACTORS)("action link and unlink for %s", async (actor) => {
    const id = await newOwner();
    const linked = await act(id, actor, { intent: "link", codigo });
    expect(outcomeOf(linked)).toEqual(PAGE_RULE[actor]);
    const links = async () => (await db().select().from(property_owners).where(eq(property_owners.owner_id, id))).length;
    expect(await links()).toBe(allowed(PAGE_RULE, actor) ? 1 : 0);
    await db().insert(property_owners).values({ owner_id: id, property_id: propertyId }).onConflictDoNothing();
    const unlinked = await act(id, actor, { intent: "unlink", property_id: propertyId });
    expect(outcomeOf(unlinked)).toEqual(PAGE_RULE[actor]);
    expect(await links()).toBe(allowed(PAGE_RULE, actor) ? 0 : 1);
  });

  it.each(ACTORS)("action captacao for %s", async (actor) => {
    const id = await newOwner(true);
    await db().update(property_captacao).set({ keys_location: null }).where(eq(property_captacao.property_id, propertyId));
    const result = await act(id, actor, { intent: "captacao", property_id: propertyId, authorization_type: "exclusiva", keys_location: `Com ${actor}` });
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const [row] = await db().select().from(property_captacao).where(eq(property_captacao.property_id, propertyId));
    expect(row.keys_location).toBe(allowed(PAGE_RULE, actor) ? `Com ${actor}` : null);
  });

  it.each(ACTORS)("action document upload, the PDF route and document-delete for %s", async (actor) => {
    const id = await newOwner(true);
    await db().update(property_captacao).set({ document_key: null }).where(eq(property_captacao.property_id, propertyId));
    const form = new FormData();
    form.set("intent", "document");
    form.set("property_id", propertyId);
    form.set("file", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "a.pdf");
    const headers: Record<string, string> = { Origin: "http://localhost:3000" };
    const cookie = cookieOf(actor);
    if (cookie) headers.Cookie = cookie;
    const request = new Request(`http://localhost:3000/crm/proprietarios/${id}`, { method: "POST", body: form, headers });
    const uploaded = await settle(() => ownerAction({ request, params: { id }, context } as never));
    expect(outcomeOf(uploaded)).toEqual(PAGE_RULE[actor]);
    const keyOf = async () => (await db().select().from(property_captacao).where(eq(property_captacao.property_id, propertyId)))[0].document_key;
    expect((await keyOf()) !== null).toBe(allowed(PAGE_RULE, actor));

    // The PDF itself: staff get it; without a session 401, without a role 403. Seeded for the others.
    if (!(await keyOf())) {
      const key = `private-${crypto.randomUUID()}/autorizacao.pdf`;
      await matrix.runtime.storage.put(key, PDF, "application/pdf");
      await db().update(property_captacao).set({ document_key: key }).where(eq(property_captacao.property_id, propertyId));
    }
    const served = await settle(() => documentLoader({ request: makeRequest(`/crm/captacao/${propertyId}/documento`, { cookie: cookieOf(actor) }), params: { propertyId }, context } as never));
    expect(outcomeOf(served)).toEqual(API_RULE[actor]);

    const removed = await act(id, actor, { intent: "document-delete", property_id: propertyId });
    expect(outcomeOf(removed)).toEqual(PAGE_RULE[actor]);
    expect((await keyOf()) === null).toBe(allowed(PAGE_RULE, actor));
  });

  it.each(ACTORS)("action delete (owner page) for %s", async (actor) => {
    const id = await newOwner();
    const result = await act(id, actor, { intent: "delete" });
    if (allowed(PAGE_RULE, actor)) expect((result as Response).headers.get("Location")).toBe("/crm/proprietarios");
    else expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect((await db().select().from(owners).where(eq(owners.id, id))).length).toBe(allowed(PAGE_RULE, actor) ? 0 : 1);
  });

  it.each(ACTORS)("action anonymize (admins only) for %s", async (actor) => {
    const id = await newOwner();
    const result = await act(id, actor, { intent: "anonymize" });
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    const [row] = await db().select().from(owners).where(eq(owners.id, id));
    expect(row.anonymized_at !== null).toBe(actor === "admin");
  });

  it.each(ACTORS)("loader /crm/proprietarios/:id/exportar (admins only) for %s", async (actor) => {
    const id = await newOwner();
    const result = await settle(() => exportLoader({ request: makeRequest(`/crm/proprietarios/${id}/exportar`, { cookie: cookieOf(actor) }), params: { id }, context } as never));
    expect(outcomeOf(result)).toEqual(ADMIN_API_RULE[actor]);
  });
});
