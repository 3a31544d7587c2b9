import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { audit_log, session, user, user_roles } from "~/db/schema";
import fs from "node:fs";
import path from "node:path";
import { credentialsNotice, DEFAULT_ADMIN_EMAIL, ensureAdmin } from "~/features/auth/admin.server";
import { createUserWithPassword } from "~/features/auth/auth.server";
import { parseEnv } from "~/lib/env.server";
import { action as authAction } from "~/routes/auth";
import { cookieFrom, makeRequest } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { answerOf, call } from "./auth-helpers";

/**
 * Finding 1 (high): whoever signed up first with the broker's address became admin on the next
 * start. Now ensureAdmin only hands admin to an account it created or whose password it just set.
 */
describe.each(DATABASE_KINDS)("first admin on %s", (kind) => {
  let test: TestRuntime;
  beforeAll(async () => {
    test = await startTestRuntime(kind);
  });
  afterAll(async () => {
    await test.stop();
  });
  beforeEach(async () => {
    await test.runtime.db.delete(user);
  });

  const BROKER = "corretora@imobiliaria.com";
  const ATTACKER_PASSWORD = "senha-do-intruso-1";

  /** An account someone else made with the broker's address, signed in (a session to lose). */
  async function attackerAccount() {
    const created = await createUserWithPassword(test.runtime.auth, { email: BROKER, password: ATTACKER_PASSWORD, name: "Intruso" });
    const { headers } = await test.runtime.auth.api.signInEmail({ body: { email: BROKER, password: ATTACKER_PASSWORD }, returnHeaders: true });
    return { id: created.id, cookie: cookieFrom(headers) };
  }

  const envWith = (vars: Record<string, string>) => ({ ...test.runtime, env: parseEnv({ DATA_DIR: test.dataDir, ...vars }) });
  const canSignIn = (email: string, password: string) =>
    test.runtime.auth.api.signInEmail({ body: { email, password } }).then(
      () => true,
      () => false,
    );
  const roleOf = async (id: string) =>
    (await test.runtime.db.select({ role: user_roles.role }).from(user_roles).where(eq(user_roles.user_id, id)))[0]?.role ?? null;

  it("with ADMIN_PASSWORD: an account signed up first loses its password and sessions before it becomes admin", async () => {
    const attacker = await attackerAccount();
    expect(await test.runtime.auth.api.getSession({ headers: new Headers({ Cookie: attacker.cookie }) })).not.toBeNull();

    const lines: string[] = [];
    await ensureAdmin(envWith({ ADMIN_EMAIL: BROKER, ADMIN_PASSWORD: "senha-da-corretora-9" }), (line) => lines.push(line));

    expect(await canSignIn(BROKER, ATTACKER_PASSWORD)).toBe(false);
    expect(await canSignIn(BROKER, "senha-da-corretora-9")).toBe(true);
    expect(await test.runtime.auth.api.getSession({ headers: new Headers({ Cookie: attacker.cookie }) })).toBeNull();
    const [{ sessions }] = await test.runtime.db
      .select({ sessions: count() })
      .from(session)
      .where(eq(session.userId, attacker.id));
    expect(sessions).toBe(1); // only the one canSignIn just made with the broker's password
    expect(await roleOf(attacker.id)).toBe("admin");
    const [row] = await test.runtime.db.select({ verified: user.emailVerified }).from(user).where(eq(user.id, attacker.id));
    expect(row.verified).toBe(true);
    // The configured password is not printed.
    expect(lines.join("\n")).not.toContain("senha-da-corretora-9");
  });

  it("without a terminal, a generated password goes to a file only the server's user reads, never to the log", async () => {
    // Under the test runner stdout is not a terminal, as under a service manager.
    expect(process.stdout.isTTY).toBeFalsy();
    const file = path.join(test.dataDir, "admin-credentials.txt");
    fs.rmSync(file, { force: true });
    const logged: string[] = [];
    const log = (line: string) => logged.push(line);
    await ensureAdmin(envWith({ ADMIN_EMAIL: BROKER }), log, credentialsNotice(test.dataDir, log));
    const password = /senha: (\S+)/.exec(fs.readFileSync(file, "utf8"))?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(logged.join("\n")).toContain("admin-credentials.txt");
    expect(logged.join("\n")).not.toContain(password!);
    expect(await canSignIn(BROKER, password!)).toBe(true);
  });

  it("without ADMIN_PASSWORD: the account gets a new random password, shown once on the terminal with the CLI's command", async () => {
    const attacker = await attackerAccount();
    const lines: string[] = [];
    await ensureAdmin(envWith({ ADMIN_EMAIL: BROKER }), (line) => lines.push(line));
    const printed = lines.join("\n");
    const password = /senha: (\S+)/.exec(printed)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(printed).toContain(`npm run cli -- user:password ${BROKER}`);

    expect(await canSignIn(BROKER, ATTACKER_PASSWORD)).toBe(false);
    expect(await test.runtime.auth.api.getSession({ headers: new Headers({ Cookie: attacker.cookie }) })).toBeNull();
    expect(await canSignIn(BROKER, password!)).toBe(true);
    expect(await roleOf(attacker.id)).toBe("admin");

    // The next start leaves the admin (and the password the broker may have chosen) alone.
    const again: string[] = [];
    await ensureAdmin(envWith({ ADMIN_EMAIL: BROKER }), (line) => again.push(line));
    expect(again).toEqual([]);
    expect(await canSignIn(BROKER, password!)).toBe(true);
  });

  it("an attacker who used the real sign-up form first gains nothing either", async () => {
    const signedUp = answerOf(
      await call(
        authAction,
        makeRequest("/auth", { form: { intent: "cadastro", fullName: "Intruso", email: BROKER, password: ATTACKER_PASSWORD } }),
      ),
    );
    expect(signedUp.status).toBe(200);
    await ensureAdmin(envWith({ ADMIN_EMAIL: BROKER, ADMIN_PASSWORD: "senha-da-corretora-9" }), () => {});
    expect(await canSignIn(BROKER, ATTACKER_PASSWORD)).toBe(false);
    expect(await canSignIn(BROKER, "senha-da-corretora-9")).toBe(true);
  });

  it("refuses a common ADMIN_PASSWORD at start-up, naming the variable", async () => {
    await expect(ensureAdmin(envWith({ ADMIN_EMAIL: BROKER, ADMIN_PASSWORD: "password123" }), () => {})).rejects.toThrow(/ADMIN_PASSWORD: .*comum/);
    expect(await test.runtime.db.select().from(user)).toEqual([]);
  });

  it("without ADMIN_EMAIL creates the default admin once, with a printed password that signs in", async () => {
    const lines: string[] = [];
    await ensureAdmin(envWith({}), (line) => lines.push(line));
    const printed = lines.join("\n");
    const password = /senha: (\S+)/.exec(printed)![1];
    expect(printed).toContain(`email: ${DEFAULT_ADMIN_EMAIL}`);
    expect(printed).toContain("npm run cli -- user:password");
    expect(await canSignIn(DEFAULT_ADMIN_EMAIL, password)).toBe(true);
    const [admin] = await test.runtime.db.select({ id: user.id }).from(user).where(eq(user.email, DEFAULT_ADMIN_EMAIL));
    expect(await roleOf(admin.id)).toBe("admin");
    const audited = await test.runtime.db
      .select({ n: count() })
      .from(audit_log)
      .where(and(eq(audit_log.action, "user.role"), eq(audit_log.entity_id, admin.id)));
    expect(audited[0].n).toBe(1);

    const again: string[] = [];
    await ensureAdmin(envWith({}), (line) => again.push(line));
    expect(again).toEqual([]);
  });

  it("without ADMIN_EMAIL never promotes a default address someone else signed up with", async () => {
    await call(
      authAction,
      makeRequest("/auth", { form: { intent: "cadastro", fullName: "Intruso", email: DEFAULT_ADMIN_EMAIL, password: ATTACKER_PASSWORD } }),
    );
    const lines: string[] = [];
    await ensureAdmin(envWith({}), (line) => lines.push(line));
    expect(lines.join("\n")).toContain("não foi promovido");
    expect(await test.runtime.db.select().from(user_roles)).toEqual([]);
  });
});
