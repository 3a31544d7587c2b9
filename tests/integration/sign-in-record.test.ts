import fs from "node:fs";
import path from "node:path";
import { and, desc, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audit_log } from "~/db/schema";
import { SIGN_IN_LIMITS } from "~/features/auth/sessions.server";
import * as authRoute from "~/routes/auth";
import { loader as auditLoader } from "~/routes/crm-audit";
import { housekeepingRound } from "~/runtime.server";
import { createApp } from "../../server/app";
import { createSignedInUser, makeRequest, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { resourceRoutesBuild } from "../helpers/server-build";
import { answerOf, call } from "./auth-helpers";

/**
 * Issue 21, finding 9 (ASVS 16.3.1): sign-ins were not logged. Successful and failed sign-ins,
 * the moment a limit starts refusing, and account lock-outs go to the audit trail with the
 * account, the time and the client's address — never a password, and for an address without an
 * account only a short, masked form of what was typed.
 */
describe.each(DATABASE_KINDS)("sign-ins in the audit trail on %s", (kind) => {
  let test: TestRuntime;
  let admin: TestUser;
  beforeAll(async () => {
    test = await startTestRuntime(kind);
    admin = await createSignedInUser(test.runtime, "admin");
  });
  afterAll(async () => {
    await test.stop();
  });

  const signIn = (email: string, password: string, ip: string) =>
    call(authRoute.action, makeRequest("/auth", { form: { intent: "login", email, password } }), ip);
  const signInRows = () => test.runtime.db.select().from(audit_log).where(like(audit_log.action, "auth.%")).orderBy(desc(audit_log.at));
  const rowsFor = (userId: string) =>
    test.runtime.db.select().from(audit_log).where(and(like(audit_log.action, "auth.%"), eq(audit_log.entity_id, userId))).orderBy(audit_log.at);

  it("records a success and a wrong password with the account, the time and the address, never the password", async () => {
    const person = await createSignedInUser(test.runtime, "corretor");
    const started = Date.now() - 1000;
    expect(answerOf(await signIn(person.email, "senha-errada-secreta-9", "203.0.113.41")).status).toBe(400);
    expect(answerOf(await signIn(person.email, person.password, "203.0.113.42")).status).toBe(302);

    const rows = await rowsFor(person.id);
    expect(rows.map((row) => [row.action, row.details])).toEqual([
      ["auth.sign_in_failed", { ip: "203.0.113.41", reason: "wrong_password" }],
      ["auth.sign_in", { ip: "203.0.113.42" }],
    ]);
    for (const row of rows) {
      expect(row.entity).toBe("user");
      expect(new Date(row.at).getTime()).toBeGreaterThan(started);
    }
    const everything = JSON.stringify(await signInRows());
    expect(everything).not.toContain("senha-errada-secreta-9");
    expect(everything).not.toContain(person.password);
  });

  it("an address without an account is kept short and masked; a password typed into the e-mail field is never kept", async () => {
    const long = `${"a".repeat(60)}@${"sub.".repeat(40)}exemplo.com.br`;
    expect(answerOf(await signIn("ninguem.aqui@exemplo.com.br", "qualquer-coisa-1", "203.0.113.43")).status).toBe(400);
    expect(answerOf(await signIn(long, "qualquer-coisa-2", "203.0.113.43")).status).toBe(400);
    // The password in the e-mail field (and the address in the password field): refused before any check.
    expect(answerOf(await signIn("MinhaSenhaSecreta#77", "ana@exemplo.com", "203.0.113.43")).status).toBe(400);

    const rows = (await signInRows()).filter((row) => (row.details as { ip?: string }).ip === "203.0.113.43");
    expect(rows).toHaveLength(2);
    const typed = rows.map((row) => (row.details as { email: string }).email).sort();
    expect(typed[1]).toBe("n…@exemplo.com.br");
    expect(typed[0].startsWith("a…@")).toBe(true);
    expect(typed[0].length).toBeLessThanOrEqual(80);
    for (const row of rows) expect(row).toMatchObject({ entity: "user", entity_id: null, action: "auth.sign_in_failed", details: { reason: "unknown_account" } });
    const everything = JSON.stringify(await signInRows());
    expect(everything).not.toContain("MinhaSenhaSecreta");
    expect(everything).not.toContain("ninguem.aqui");
    expect(everything).not.toContain("qualquer-coisa");
  });

  it("records the moment a limit starts refusing once per window, not every refused attempt", async () => {
    const person = await createSignedInUser(test.runtime, "corretor");
    for (let i = 0; i < SIGN_IN_LIMITS.perPair.max + 3; i++) await signIn(person.email, "chute-errado-9", "203.0.113.44");
    const rows = await rowsFor(person.id);
    expect(rows.filter((row) => row.action === "auth.sign_in_failed")).toHaveLength(SIGN_IN_LIMITS.perPair.max);
    const throttled = rows.filter((row) => row.action === "auth.sign_in_throttled");
    expect(throttled).toHaveLength(1);
    expect(throttled[0].details).toEqual({ ip: "203.0.113.44", limit: "pair" });
  });

  it("takes the address the server resolved (X-Forwarded-For behind a trusted proxy), not one the client wrote", async () => {
    const person = await createSignedInUser(test.runtime, "corretor");
    const clientDir = fs.mkdtempSync(path.join(test.dataDir, "client-"));
    const app = createApp({
      build: resourceRoutesBuild({ "routes/auth": { path: "auth", module: authRoute } }, clientDir),
      clientDir,
      publicUrl: "http://localhost:3000",
      trustProxy: true,
      pageCacheMaxBytes: 0,
    });
    const response = await app.fetch(
      new Request("http://localhost:3000/auth", {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: "http://localhost:3000",
          "X-Forwarded-For": "192.0.2.250, 198.51.100.99",
          "X-Client-IP": "10.9.9.9",
        },
        body: new URLSearchParams({ intent: "login", email: person.email, password: person.password }).toString(),
      }),
      // The connection comes from our proxy (TRUSTED_PROXIES: loopback by default).
      { incoming: { socket: { remoteAddress: "127.0.0.1" } } } as never,
    );
    expect(response.status).toBe(302);
    const [row] = await rowsFor(person.id);
    expect(row).toMatchObject({ action: "auth.sign_in", details: { ip: "198.51.100.99" } });
  });

  it("keeps sign-in records 90 days: the housekeeping round drops older ones", async () => {
    const person = await createSignedInUser(test.runtime, "corretor");
    await test.runtime.db.insert(audit_log).values([
      { at: sql`now() - interval '91 days'` as unknown as Date, action: "auth.sign_in", entity: "user", entity_id: person.id, details: { ip: "192.0.2.91" } },
      { at: sql`now() - interval '89 days'` as unknown as Date, action: "auth.sign_in", entity: "user", entity_id: person.id, details: { ip: "192.0.2.89" } },
      { at: sql`now() - interval '400 days'` as unknown as Date, action: "property.create", entity: "property", details: { codigo: "VELHO-1" } },
    ]);
    await housekeepingRound(test.runtime);
    expect((await rowsFor(person.id)).map((row) => (row.details as { ip: string }).ip)).toEqual(["192.0.2.89"]);
    expect(await test.runtime.db.select().from(audit_log).where(eq(audit_log.action, "property.create"))).toHaveLength(1);
  });

  it("admins read them at /crm/auditoria in Portuguese", async () => {
    const page = (await auditLoader({ request: makeRequest("/crm/auditoria", { cookie: admin.cookie }), params: {}, context: {} } as never)) as {
      entries: { actionLabel: string; record: string; details: string[] }[];
    };
    const labels = page.entries.map((entry) => entry.actionLabel);
    expect(labels).toEqual(expect.arrayContaining(["Entrou no CRM", "Entrada recusada: senha errada", "Entrada recusada: conta inexistente", "Tentativas bloqueadas"]));
    expect(page.entries.map((entry) => entry.record)).toContain("Conta inexistente (n…@exemplo.com.br)");
    expect(page.entries.flatMap((entry) => entry.details)).toEqual(expect.arrayContaining(["Endereço: 203.0.113.41"]));
  });
});
