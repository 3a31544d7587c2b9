import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { audit_log, leads, listing_alerts, settings } from "~/db/schema";
import { ANONYMIZED } from "~/features/privacy/markers";
import { loader as alertsLoader } from "~/routes/crm-alerts";
import { action as privacyAction, loader as privacyLoader } from "~/routes/crm-privacy";
import { loader as exportLoader } from "~/routes/crm-privacy-export";
import { loader as publicPrivacyLoader } from "~/routes/privacy";
import { ACTORS, ADMIN_API_RULE, ADMIN_PAGE_RULE, PAGE_RULE, type Actor, context, matrixRuntime, type Outcome, outcomeOf, PUBLIC_RULE } from "../helpers/authorization";
import { insertLead, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";

/**
 * The authorisation matrix of the person's rights (LGPD): /crm/privacidade (loader and each
 * intent of its action), the export download and the public /privacidade, called with real
 * requests (hand-made posts included) by an anonymous visitor, a signed-in user without a role,
 * a corretor (403: only an admin sees, exports or erases personal data) and an admin — with the
 * rows and audit rows counted before and after.
 */

describe.each(DATABASE_KINDS)("privacy authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { cookieOf } = matrix;
  let person: { id: string };
  const NAME = "Titular Da Matriz";
  const PHONE = "(84) 96666-1234";

  beforeAll(async () => {
    person = await insertLead(matrix.runtime, { full_name: NAME, phone: PHONE, email: "matriz@teste.com" });
  });

  const audits = async (action: string) =>
    (await matrix.runtime.db.select({ n: count() }).from(audit_log).where(eq(audit_log.action, action)))[0].n;

  it.each(ACTORS)("loader /crm/privacidade?lead=… for %s", async (actor) => {
    const result = await settle(() =>
      privacyLoader({ request: makeRequest(`/crm/privacidade?lead=${person.id}`, { cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    // A refused caller gets nothing of the person; the admin gets them.
    if (actor === "admin") expect(JSON.stringify(result)).toContain(NAME);
    else expect(JSON.stringify(result instanceof Response ? await result.clone().text() : result)).not.toContain(NAME);
  });

  it.each(ACTORS)("loader /crm/privacidade/exportar for %s", async (actor) => {
    const before = await audits("privacy.export");
    const result = await settle(() =>
      exportLoader({ request: makeRequest(`/crm/privacidade/exportar?lead=${person.id}&formato=csv`, { cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_API_RULE[actor]);
    const text = await (result as Response).text();
    if (actor === "admin") expect(text).toContain(NAME);
    else expect(text).not.toContain(NAME);
    expect((await audits("privacy.export")) - before).toBe(actor === "admin" ? 1 : 0);
  });

  it.each(ACTORS)("action search (a hand-made form post) for %s", async (actor) => {
    const result = await settle(() =>
      privacyAction({ request: makeRequest("/crm/privacidade", { form: { intent: "search", q: PHONE }, cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    const rule: Record<Actor, Outcome> = { ...ADMIN_PAGE_RULE, admin: { kind: "redirect", location: "/crm/privacidade" } };
    expect(outcomeOf(result)).toEqual(rule[actor]);
    if (actor === "admin") expect((result as Response).headers.get("Location")).toBe(`/crm/privacidade?lead=${person.id}`);
  });

  it.each(ACTORS)("action anonymize (a hand-made form post) for %s", async (actor) => {
    const target = await insertLead(matrix.runtime, { full_name: `Apagar ${actor}`, phone: `(84) 9${ACTORS.indexOf(actor)}777-0000` });
    const before = await audits("privacy.anonymize");
    const result = await settle(() =>
      privacyAction({
        request: makeRequest("/crm/privacidade", { form: { intent: "anonymize", lead: target.id, leadIds: target.id }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    const [row] = await matrix.runtime.db.select().from(leads).where(eq(leads.id, target.id));
    expect(row.full_name).toBe(actor === "admin" ? ANONYMIZED.name : `Apagar ${actor}`);
    expect((await audits("privacy.anonymize")) - before).toBe(actor === "admin" ? 1 : 0);
  });

  it.each(ACTORS)("action retention (a hand-made form post) for %s", async (actor) => {
    await matrix.runtime.db.delete(settings).where(eq(settings.key, "retention_months"));
    const before = await audits("privacy.retention_months");
    const result = await settle(() =>
      privacyAction({ request: makeRequest("/crm/privacidade", { form: { intent: "retention", months: "36" }, cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    const saved = await matrix.runtime.db.select().from(settings).where(and(eq(settings.key, "retention_months")));
    expect(saved.length).toBe(actor === "admin" ? 1 : 0);
    expect((await audits("privacy.retention_months")) - before).toBe(actor === "admin" ? 1 : 0);
  });

  // 'Avise-me' subscribers with no lead (decision 025): found, exported and erased by admins only;
  // the list of alerts (/crm/avise-me) is a staff page.
  const SUBSCRIBER = "assinante.matriz@teste.com";
  let alerts = 0;
  const newAlert = async (actor: Actor) =>
    (await matrix.runtime.db.insert(listing_alerts).values({ email: `${actor}.${SUBSCRIBER}`, query: `quartos=${++alerts % 4 || 4}&bairro=b${alerts}`, status: "confirmed" }).returning())[0].id;

  it.each(ACTORS)("loader /crm/avise-me for %s", async (actor) => {
    await newAlert(actor);
    const result = await settle(() => alertsLoader({ request: makeRequest("/crm/avise-me?status=confirmados", { cookie: cookieOf(actor) }), params: {}, context } as never));
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    if (actor === "corretor" || actor === "admin") expect(JSON.stringify(result)).toContain(SUBSCRIBER);
  });

  it.each(ACTORS)("loader /crm/privacidade?alerta=… and its export for %s", async (actor) => {
    const id = await newAlert(actor);
    const page = await settle(() => privacyLoader({ request: makeRequest(`/crm/privacidade?alerta=${id}`, { cookie: cookieOf(actor) }), params: {}, context } as never));
    expect(outcomeOf(page)).toEqual(ADMIN_PAGE_RULE[actor]);
    const before = await audits("privacy.export");
    const file = await settle(() => exportLoader({ request: makeRequest(`/crm/privacidade/exportar?alerta=${id}&formato=json`, { cookie: cookieOf(actor) }), params: {}, context } as never));
    expect(outcomeOf(file)).toEqual(ADMIN_API_RULE[actor]);
    const text = await (file as Response).text();
    if (actor === "admin") expect(text).toContain(SUBSCRIBER);
    else expect(text).not.toContain(SUBSCRIBER);
    expect((await audits("privacy.export")) - before).toBe(actor === "admin" ? 1 : 0);
  });

  it.each(ACTORS)("action delete-alerts (a hand-made form post) for %s", async (actor) => {
    const id = await newAlert(actor);
    const result = await settle(() =>
      privacyAction({ request: makeRequest("/crm/privacidade", { form: { intent: "delete-alerts", alerta: id }, cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    const left = await matrix.runtime.db.select().from(listing_alerts).where(eq(listing_alerts.id, id));
    expect(left.length).toBe(actor === "admin" ? 0 : 1);
  });

  it.each(ACTORS)("loader /privacidade (public) for %s: the period it states is the setting", async (actor) => {
    await matrix.runtime.db
      .insert(settings)
      .values({ key: "retention_months", value: 48 })
      .onConflictDoUpdate({ target: settings.key, set: { value: 48 } });
    const result = await settle(() => (publicPrivacyLoader as (args: unknown) => Promise<unknown>)({ request: makeRequest("/privacidade", { cookie: cookieOf(actor) }), params: {}, context }));
    expect(outcomeOf(result)).toEqual(PUBLIC_RULE[actor]);
    expect(result).toEqual({ retentionMonths: 48 });
  });
});
