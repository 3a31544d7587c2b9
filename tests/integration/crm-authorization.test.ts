import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { account, invitation, leads, media, properties, user_roles } from "~/db/schema";
import { loader as verifyLoader } from "~/routes/auth-verify";
import { action as forgotAction } from "~/routes/auth-forgot";
import { loader as resetLoader } from "~/routes/auth-reset";
import { loader as inviteLoader } from "~/routes/auth-invite";
import { action as accountAction, loader as accountLoader } from "~/routes/crm-account";
import { action as mediaAction } from "~/routes/crm-media";
import { loader as auditLoader } from "~/routes/crm-audit";
import { loader as backupLoader } from "~/routes/crm-backup";
import { loader as dashboardLoader } from "~/routes/crm-dashboard";
import { action as emailsAction, loader as emailsLoader } from "~/routes/crm-emails";
import { outbox } from "~/db/schema";
import { enqueueMail } from "~/features/mail/outbox.server";
import { loader as layoutLoader } from "~/routes/crm-layout";
import { loader as manifestLoader } from "~/routes/crm-manifest";
import { action as leadsAction, loader as leadsLoader } from "~/routes/crm-leads";
import { action as propertiesAction, loader as propertiesLoader } from "~/routes/crm-properties";
import { loader as reportsLoader } from "~/routes/crm-reports";
import { action as usersAction, loader as usersLoader } from "~/routes/crm-users";
import { action as portalLeadsAction, loader as portalLeadsLoader } from "~/routes/portal-leads-webhook";
import { createSignedInUser, insertLead, insertProperty, makeRequest, settle } from "../helpers/factories";
import { DATABASE_KINDS } from "../helpers/runtime";
import {
  ACTORS,
  ADMIN_API_RULE,
  ADMIN_PAGE_RULE,
  API_RULE,
  matrixRuntime,
  context,
  type Outcome,
  outcomeOf,
  PAGE_RULE,
  PUBLIC_RULE,
} from "../helpers/authorization";

/**
 * The authorisation matrix: every CRM loader and action and every staff resource route, called
 * with real requests (hand-made form posts included) by an anonymous visitor, a signed-in user
 * without a role, a corretor and an admin — with database counts before and after.
 */

describe.each(DATABASE_KINDS)("CRM authorisation matrix on %s", (kind) => {
  const matrix = matrixRuntime(kind);
  const { users, cookieOf } = matrix;


  const counts = async () => {
    const db = matrix.runtime.db;
    const [[p], [l], [r], [m]] = await Promise.all([
      db.select({ n: count() }).from(properties),
      db.select({ n: count() }).from(leads),
      db.select({ n: count() }).from(user_roles),
      db.select({ n: count() }).from(media),
    ]);
    return { properties: p.n, leads: l.n, roles: r.n, media: m.n };
  };

  const pages = [
    { name: "/crm (layout)", run: layoutLoader, path: "/crm", rule: PAGE_RULE },
    // The installable CRM's manifest (decision 029): public, it names the site only.
    { name: "/crm/manifest.webmanifest", run: manifestLoader, path: "/crm/manifest.webmanifest", rule: PUBLIC_RULE },
    { name: "/crm (dashboard)", run: dashboardLoader, path: "/crm", rule: PAGE_RULE },
    { name: "/crm/imoveis", run: propertiesLoader, path: "/crm/imoveis", rule: PAGE_RULE },
    { name: "/crm/leads", run: leadsLoader, path: "/crm/leads", rule: PAGE_RULE },
    { name: "/crm/relatorios", run: reportsLoader, path: "/crm/relatorios", rule: PAGE_RULE },
    { name: "/crm/usuarios", run: usersLoader, path: "/crm/usuarios", rule: ADMIN_PAGE_RULE },
    { name: "/crm/conta", run: accountLoader, path: "/crm/conta", rule: PAGE_RULE },
    { name: "/auth/verificar", run: verifyLoader, path: "/auth/verificar?token=x", rule: PUBLIC_RULE },
    { name: "/auth/redefinir", run: resetLoader, path: "/auth/redefinir?token=x", rule: PUBLIC_RULE },
    { name: "/auth/convite", run: inviteLoader, path: "/auth/convite?token=x", rule: PUBLIC_RULE },
    { name: "/crm/emails", run: emailsLoader, path: "/crm/emails", rule: ADMIN_PAGE_RULE },
    { name: "/crm/auditoria", run: auditLoader, path: "/crm/auditoria", rule: ADMIN_PAGE_RULE },
    {
      name: "/crm/backup",
      run: backupLoader,
      path: "/crm/backup",
      // On PostgreSQL an admin is let through and told to use pg_dump (501).
      rule: kind === "pglite" ? ADMIN_API_RULE : { ...ADMIN_API_RULE, admin: { kind: "status", status: 501 } as Outcome },
    },
  ];

  for (const page of pages) {
    it.each(ACTORS)(`loader ${page.name} for %s`, async (actor) => {
      const result = await settle(() =>
        (page.run as (args: unknown) => Promise<unknown>)({ request: makeRequest(page.path, { cookie: cookieOf(actor) }), params: {}, context }),
      );
      expect(outcomeOf(result)).toEqual(page.rule[actor]);
    });
  }

  const propertyForm = (codigo: string) => ({
    intent: "create",
    codigo,
    title: "Casa criada por formulário",
    description: "Uma descrição longa o bastante.",
    type: "casa",
    purpose: "venda",
    status: "disponivel",
    price: "350.000,00",
    neighborhood: "Tirol",
    city: "Natal",
    state: "RN",
  });

  it.each(ACTORS)("action create property (a hand-made form post) for %s", async (actor) => {
    const before = await counts();
    const result = await settle(() =>
      propertiesAction({
        request: makeRequest("/crm/imoveis", { form: propertyForm(`AUTH-${actor.toUpperCase()}`), cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    const after = await counts();
    expect(after.properties - before.properties).toBe(PAGE_RULE[actor].kind === "ok" ? 1 : 0);
  });

  it.each(ACTORS)("action delete property for %s", async (actor) => {
    const target = await insertProperty(matrix.runtime);
    const before = await counts();
    const result = await settle(() =>
      propertiesAction({
        request: makeRequest("/crm/imoveis", { form: { intent: "delete", id: target.id }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect(before.properties - (await counts()).properties).toBe(PAGE_RULE[actor].kind === "ok" ? 1 : 0);
  });

  it.each(ACTORS)("action featured toggle for %s", async (actor) => {
    const target = await insertProperty(matrix.runtime, { featured: false });
    await settle(() =>
      propertiesAction({
        request: makeRequest("/crm/imoveis", { form: { intent: "featured", id: target.id, featured: "true" }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    const [row] = await matrix.runtime.db.select({ featured: properties.featured }).from(properties).where(eq(properties.id, target.id));
    expect(row.featured).toBe(PAGE_RULE[actor].kind === "ok");
  });

  it.each(ACTORS)("action create and delete lead for %s", async (actor) => {
    const before = await counts();
    const created = await settle(() =>
      leadsAction({
        request: makeRequest("/crm/leads", {
          form: { intent: "create", full_name: "Lead Manual", phone: "(84) 98888-7777", interest_type: "alugar", origin: "indicacao", status: "novo" },
          cookie: cookieOf(actor),
        }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(created)).toEqual(PAGE_RULE[actor]);
    expect((await counts()).leads - before.leads).toBe(PAGE_RULE[actor].kind === "ok" ? 1 : 0);

    const target = await insertLead(matrix.runtime);
    const beforeDelete = await counts();
    await settle(() =>
      leadsAction({
        request: makeRequest("/crm/leads", { form: { intent: "delete", id: target.id }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(beforeDelete.leads - (await counts()).leads).toBe(PAGE_RULE[actor].kind === "ok" ? 1 : 0);
  });

  // Issue 24: the table's dialog saving a lead as 'perdido' carries the reason (and refuses none).
  it.each(ACTORS)("action update lead to 'perdido' (the table's dialog) for %s", async (actor) => {
    const target = await insertLead(matrix.runtime, { status: "novo" });
    const values = { intent: "update", id: target.id, full_name: "Lead Da Matriz", phone: "(84) 98888-7777", interest_type: "comprar", origin: "site", status: "perdido" };
    const post = (form: Record<string, string>) =>
      settle(() => leadsAction({ request: makeRequest("/crm/leads", { form, cookie: cookieOf(actor) }), params: {}, context } as never));
    const allowed = PAGE_RULE[actor].kind === "ok";
    expect(outcomeOf(await post(values))).toEqual(allowed ? { kind: "status", status: 400 } : PAGE_RULE[actor]);
    expect(outcomeOf(await post({ ...values, lost_reason: "Comprou com outro corretor" }))).toEqual(PAGE_RULE[actor]);
    const [row] = await matrix.runtime.db.select({ status: leads.status, reason: leads.lost_reason }).from(leads).where(eq(leads.id, target.id));
    expect(row).toEqual(allowed ? { status: "perdido", reason: "Comprou com outro corretor" } : { status: "novo", reason: null });
  });

  it.each(ACTORS)("action grant a role on /crm/usuarios for %s", async (actor) => {
    const newcomer = await createSignedInUser(matrix.runtime, null);
    const before = await counts();
    const result = await settle(() =>
      usersAction({
        request: makeRequest("/crm/usuarios", { form: { userId: newcomer.id, role: "corretor" }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    expect((await counts()).roles - before.roles).toBe(actor === "admin" ? 1 : 0);
  });

  it.each(ACTORS)("action 'Tentar novamente' on /crm/emails for %s", async (actor) => {
    const id = await enqueueMail(matrix.runtime.db, { kind: "test", to: "falhou@teste.com", subject: "Assunto", text: "Texto" });
    await matrix.runtime.db.update(outbox).set({ status: "failed", attempts: 7 }).where(eq(outbox.id, id));
    const result = await settle(() =>
      emailsAction({ request: makeRequest("/crm/emails", { form: { id }, cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    const [row] = await matrix.runtime.db.select({ status: outbox.status }).from(outbox).where(eq(outbox.id, id));
    expect(row.status).toBe(actor === "admin" ? "pending" : "failed");
  });

  it.each(ACTORS)("action invite on /crm/usuarios for %s", async (actor) => {
    const email = `convite-${actor.toLowerCase()}@exemplo.com`;
    const result = await settle(() =>
      usersAction({
        request: makeRequest("/crm/usuarios", { form: { intent: "invite", email, role: "admin" }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(ADMIN_PAGE_RULE[actor]);
    const rows = await matrix.runtime.db.select().from(invitation).where(eq(invitation.email, email));
    expect(rows).toHaveLength(actor === "admin" ? 1 : 0);
  });

  it.each(ACTORS)("action change own password on /crm/conta for %s", async (actor) => {
    const target = actor === "anonymous" ? users.noRole : users[actor];
    const hashOf = async () => (await matrix.runtime.db.select({ hash: account.password }).from(account).where(eq(account.userId, target.id)))[0].hash;
    const before = await hashOf();
    const result = await settle(() =>
      accountAction({
        request: makeRequest("/crm/conta", { form: { currentPassword: target.password, newPassword: "senha-da-matriz-9" }, cookie: cookieOf(actor) }),
        params: {},
        context,
      } as never),
    );
    expect(outcomeOf(result)).toEqual(PAGE_RULE[actor]);
    expect((await hashOf()) !== before).toBe(PAGE_RULE[actor].kind === "ok");
    if (PAGE_RULE[actor].kind === "ok") target.password = "senha-da-matriz-9";
  });

  it.each(ACTORS)("action 'Esqueci minha senha' is open to %s", async (actor) => {
    const result = await settle(() =>
      forgotAction({ request: makeRequest("/auth/esqueci", { form: { email: "alguem@exemplo.com" }, cookie: cookieOf(actor) }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(PUBLIC_RULE[actor]);
  });

  // The portals' lead webhook (issue 13): HTTP Basic is the only key; a session, even an admin's,
  // opens nothing (401 without the portals' credentials, nothing stored), and a GET is 405.
  it.each(ACTORS)("the portals' lead webhook without Basic credentials for %s", async (actor) => {
    const before = await counts();
    const headers = new Headers({ "Content-Type": "application/json" });
    const cookie = cookieOf(actor);
    if (cookie) headers.set("Cookie", cookie);
    const body = JSON.stringify({ leadOrigin: "VivaReal", originLeadId: `matriz-${actor}`, name: "Lead do Portal", ddd: "84", phone: "999991234" });
    const result = await settle(() =>
      portalLeadsAction({ request: new Request("http://localhost:3000/api/portais/leads", { method: "POST", headers, body }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual({ kind: "status", status: 401 });
    expect((await counts()).leads - before.leads).toBe(0);
    const get = await settle(async () => portalLeadsLoader());
    expect(outcomeOf(get)).toEqual({ kind: "status", status: 405 });
  });

  it.each(ACTORS)("upload to /crm/midia for %s", async (actor) => {
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#3366aa" } }).jpeg().toBuffer();
    const body = new FormData();
    body.append("file", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "foto.jpg");
    const headers = new Headers({ Origin: "http://localhost:3000" });
    const cookie = cookieOf(actor);
    if (cookie) headers.set("Cookie", cookie);
    const before = await counts();
    const result = await settle(() =>
      mediaAction({ request: new Request("http://localhost:3000/crm/midia", { method: "POST", body, headers }), params: {}, context } as never),
    );
    expect(outcomeOf(result)).toEqual(API_RULE[actor]);
    expect((await counts()).media - before.media).toBe(API_RULE[actor].kind === "ok" ? 1 : 0);
  });

  it("an admin cannot take away their own admin role", async () => {
    const result = await usersAction({
      request: makeRequest("/crm/usuarios", { form: { userId: users.admin.id, role: "" }, cookie: users.admin.cookie }),
      params: {},
      context,
    } as never);
    expect(outcomeOf(result)).toEqual({ kind: "status", status: 400 });
    const [row] = await matrix.runtime.db.select().from(user_roles).where(eq(user_roles.user_id, users.admin.id));
    expect(row.role).toBe("admin");
  });
});
