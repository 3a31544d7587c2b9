import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { properties, propertiesPublic, user, user_roles } from "~/db/schema";
import { ensureAdmin } from "~/features/auth/admin.server";
import { parseEnv } from "~/lib/env.server";
import { loader as crmDashboardLoader } from "~/routes/crm-dashboard";
import { loader as notFoundLoader } from "~/routes/not-found";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { createSignedInUser, insertProperty, makeRequest, propertyValues, settle } from "../helpers/factories";

const context = { cspNonce: "test", clientIp: "203.0.113.9" };

describe.each(DATABASE_KINDS)("foundation on %s", (kind) => {
  let test: TestRuntime;
  beforeAll(async () => {
    test = await startTestRuntime(kind);
  });
  afterAll(async () => {
    await test.stop();
  });

  it("returns price and area as numbers, not strings", async () => {
    const row = await insertProperty(test.runtime, { price: 1234567.89, area: 98.5 });
    const [read] = await test.runtime.db.select().from(properties).where(eq(properties.id, row.id));
    expect(read.price).toBe(1234567.89);
    expect(read.area).toBe(98.5);
    const [fromView] = await test.runtime.db.select().from(propertiesPublic).where(eq(propertiesPublic.id, row.id));
    expect(typeof fromView.price).toBe("number");
  });

  it("keeps broker_partner out of the public view", async () => {
    await insertProperty(test.runtime, { broker_partner: "Parceiro Secreto" });
    const [row] = await queryRows(test.runtime.db, sql`select * from properties_public limit 1`);
    expect(Object.keys(row)).not.toContain("broker_partner");
    expect(Object.keys(row)).toContain("codigo");
  });

  it("refuses rows that break the spec's limits, whoever writes them", async () => {
    const attempts = [
      propertyValues({ codigo: "abc-lower" }),
      propertyValues({ title: "Casa" }),
      propertyValues({ state: "RNN" }),
      propertyValues({ price: -1 }),
      propertyValues({ type: "castelo" as never }),
    ];
    for (const values of attempts) {
      await expect(test.runtime.db.insert(properties).values(values)).rejects.toThrow();
    }
    await insertProperty(test.runtime, { codigo: "DUP-1" });
    await expect(insertProperty(test.runtime, { codigo: "DUP-1" })).rejects.toThrow();
  });

  it("holds at most one role per user", async () => {
    const member = await createSignedInUser(test.runtime, "corretor");
    await expect(test.runtime.db.insert(user_roles).values({ user_id: member.id, role: "admin" })).rejects.toThrow();
    const [{ roles }] = await test.runtime.db
      .select({ roles: count() })
      .from(user_roles)
      .where(eq(user_roles.user_id, member.id));
    expect(roles).toBe(1);
  });

  it("searches neighbourhoods without accents or case", async () => {
    await insertProperty(test.runtime, { neighborhood: "Petrópolis" });
    const rows = await queryRows(
      test.runtime.db,
      sql`select neighborhood from properties where unaccent(lower(neighborhood)) like unaccent(lower(${"%petropolis%"}))`,
    );
    expect(rows.length).toBeGreaterThan(0);
  });

  it("creates a first admin with a printed password that signs in", async () => {
    const lines: string[] = [];
    await ensureAdmin(test.runtime, (line) => lines.push(line));
    const printed = lines.join("\n");
    const password = /senha: (\S+)/.exec(printed)?.[1];
    expect(password).toBeTruthy();
    const email = /email: (\S+)/.exec(printed)![1];
    const signedIn = await test.runtime.auth.api.signInEmail({ body: { email, password: password! } });
    expect(signedIn.user.email).toBe(email);
    const [row] = await test.runtime.db
      .select({ role: user_roles.role })
      .from(user_roles)
      .innerJoin(user, eq(user.id, user_roles.user_id))
      .where(eq(user.email, email));
    expect(row.role).toBe("admin");

    // A second start changes nothing and prints nothing.
    const again: string[] = [];
    await ensureAdmin(test.runtime, (line) => again.push(line));
    expect(again).toEqual([]);
  });

  it("makes ADMIN_EMAIL an admin with ADMIN_PASSWORD", async () => {
    const env = parseEnv({
      DATA_DIR: test.dataDir,
      ADMIN_EMAIL: "Dona@Imobiliaria.com",
      ADMIN_PASSWORD: "senha-da-dona",
    });
    await ensureAdmin({ ...test.runtime, env }, () => {});
    const signedIn = await test.runtime.auth.api.signInEmail({
      body: { email: "dona@imobiliaria.com", password: "senha-da-dona" },
    });
    expect(signedIn.user.email).toBe("dona@imobiliaria.com");
  });

  it("guards the CRM on the server: anonymous → /auth, no role → /, staff → data", async () => {
    const anonymous = await settle(() => crmDashboardLoader({ request: makeRequest("/crm"), params: {}, context } as never));
    expect(anonymous).toBeInstanceOf(Response);
    expect((anonymous as Response).headers.get("Location")).toBe("/auth");

    const visitor = await createSignedInUser(test.runtime, null);
    const noRole = await settle(() =>
      crmDashboardLoader({ request: makeRequest("/crm", { cookie: visitor.cookie }), params: {}, context } as never),
    );
    expect((noRole as Response).headers.get("Location")).toBe("/");

    const broker = await createSignedInUser(test.runtime, "corretor");
    const allowed = await crmDashboardLoader({
      request: makeRequest("/crm", { cookie: broker.cookie }),
      params: {},
      context,
    } as never);
    const [{ total }] = await test.runtime.db.select({ total: count() }).from(properties);
    expect(allowed.counters.totalProperties).toBe(total);
  });

  it("answers unknown paths with status 404", async () => {
    const result = notFoundLoader() as unknown as { init: { status: number } };
    expect(result.init.status).toBe(404);
  });
});
