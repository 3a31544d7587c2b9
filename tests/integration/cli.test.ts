import { spawnSync } from "node:child_process";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { audit_log, invitation, listing_alerts, outbox, owners, properties, property_owners, user, user_roles } from "~/db/schema";
import { createUserWithPassword } from "~/features/auth/auth.server";
import { inviteUser } from "~/features/auth/invitations.server";
import { createSignedInUser, propertyValues } from "../helpers/factories";
import { runCli } from "../../server/cli";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The CLI grants a role only to an account whose e-mail is confirmed (issue 9): someone who signed
 * up with another person's address must not receive that person's access from a terminal either.
 * The CLI opens the database itself, so the test runtime is stopped (PGlite allows one holder).
 */
describe.each(DATABASE_KINDS)("CLI role:set on %s", (kind) => {
  let test: TestRuntime;
  let databaseUrl: string | undefined;
  const email = "recem@exemplo.com";
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  /** Two admins, each with a pending invitation (issue 21: the CLI's demotions end them). */
  const inviters: { email: string; invitee: string }[] = [];

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    databaseUrl = test.runtime.env.DATABASE_URL;
    const created = await createUserWithPassword(test.runtime.auth, { email, password: "uma-senha-longa-9", name: "Recém Chegada" });
    await test.runtime.db.update(user).set({ emailVerified: false }).where(eq(user.id, created.id));
    for (const name of ["rebaixada", "removida"]) {
      const inviter = await createSignedInUser(test.runtime, "admin");
      const invitee = `convite-de-${name}@exemplo.com`;
      await inviteUser(test.runtime, { id: inviter.id, email: inviter.email, name }, { email: invitee, role: "corretor" });
      inviters.push({ email: inviter.email, invitee });
    }
    const { stopRuntime } = await import("~/runtime.server");
    await stopRuntime();
    process.env.DATA_DIR = test.dataDir;
    if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
    else delete process.env.DATABASE_URL;
  });
  afterAll(async () => {
    process.env.DATA_DIR = saved.DATA_DIR;
    if (saved.DATABASE_URL) process.env.DATABASE_URL = saved.DATABASE_URL;
    else delete process.env.DATABASE_URL;
    await test.stop();
  });

  /** `npm run cli -- …` in a child process; its output lines without the log's JSON lines. */
  function cliProcess(args: string[]): string {
    const result = spawnSync(path.resolve("node_modules/.bin/tsx"), ["server/cli.ts", ...args], {
      encoding: "utf8",
      env: { ...process.env, DATA_DIR: test.dataDir, DATABASE_URL: databaseUrl ?? "", LOG_LEVEL: "error" },
      timeout: 120_000,
    });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout.split("\n").filter((line) => line && !line.startsWith("{")).join("\n");
  }

  /** Reads the database the CLI wrote (the test runtime is stopped meanwhile). */
  async function read<T>(query: (db: Database) => Promise<T>): Promise<T> {
    const { openDatabase } = await import("~/db/client.server");
    const handle = await openDatabase({ databaseUrl, dataDir: test.dataDir });
    try {
      return await query(handle.db);
    } finally {
      await handle.close();
    }
  }

  const roleAndVerified = () =>
    read(async (db) => {
      const [row] = await db
        .select({ verified: user.emailVerified, role: user_roles.role })
        .from(user)
        .leftJoin(user_roles, eq(user_roles.user_id, user.id))
        .where(eq(user.email, email));
      return row;
    });

  it("refuses an unconfirmed account, and with --force confirms it and grants the role", async () => {
    await expect(runCli(["role:set", email, "corretor"], () => {})).rejects.toThrow(/ainda não confirmou o email/);
    expect(await roleAndVerified()).toEqual({ verified: false, role: null });

    const out: string[] = [];
    await runCli(["role:set", email, "corretor", "--force"], (line) => out.push(line));
    expect(out.join("\n")).toContain("agora é corretor");
    expect(await roleAndVerified()).toEqual({ verified: true, role: "corretor" });
  });

  it("role:set to corretor and role:remove end the admin's pending invitations, and both are audited", async () => {
    const revokedAt = (invitee: string) => read(async (db) => (await db.select().from(invitation).where(eq(invitation.email, invitee)))[0].revoked_at);
    expect(await revokedAt(inviters[0].invitee)).toBeNull();
    await runCli(["role:set", inviters[0].email, "corretor"], () => {});
    expect(await revokedAt(inviters[0].invitee)).not.toBeNull();
    expect(await revokedAt(inviters[1].invitee)).toBeNull();
    await runCli(["role:remove", inviters[1].email], () => {});
    expect(await revokedAt(inviters[1].invitee)).not.toBeNull();

    const entries = await read((db) => db.select().from(audit_log).where(eq(audit_log.action, "user.role")));
    expect(entries.map((entry) => entry.details)).toEqual(
      expect.arrayContaining([
        { from: "admin", to: "corretor", source: "cli" },
        { from: "admin", to: null, source: "cli" },
      ]),
    );
  });
  it("owner-reports queues a month's owner reports once (decision 024) and refuses a bad period", async () => {
    await read(async (db) => {
      const [property] = await db.insert(properties).values(propertyValues()).returning();
      const [owner] = await db.insert(owners).values({ full_name: "Dona do CLI", email: "dona.cli@exemplo.com" }).returning();
      await db.insert(property_owners).values({ owner_id: owner.id, property_id: property.id });
    });
    await expect(runCli(["owner-reports", "--period", "2026-13"], () => {})).rejects.toThrow(/Período inválido/);
    // As an operator runs them: each command in a process of its own (an embedded database opened
    // and closed many times in one process runs out of WebAssembly memory before the CLI would).
    expect([cliProcess(["owner-reports", "--period", "2026-01"]), cliProcess(["owner-reports", "--period", "2026-01"])]).toEqual([
      "Relatórios de 2026-01: 1 e-mail(s) na fila.",
      "Relatórios de 2026-01: 0 e-mail(s) na fila.",
    ]);
    const mails = await read((db) => db.select().from(outbox).where(eq(outbox.kind, "owner_report")));
    expect(mails.map((mail) => mail.to_address)).toEqual(["dona.cli@exemplo.com"]);
  });
  it("alert-digests queues a confirmed alert's digest once a day (decision 025)", async () => {
    await read(async (db) => {
      await db.insert(listing_alerts).values({ email: "alerta.cli@exemplo.com", query: "bairro=Bairro+do+CLI", status: "confirmed", confirmed_at: sql`now() - interval '1 day'` });
      await db.insert(properties).values(propertyValues({ neighborhood: "Bairro do CLI" }));
    });
    expect([cliProcess(["alert-digests"]), cliProcess(["alert-digests"])]).toEqual(["Alertas confirmados: 1; resumos na fila: 1.", "Alertas confirmados: 1; resumos na fila: 0."]);
    const mails = await read((db) => db.select().from(outbox).where(eq(outbox.kind, "alert-digest")));
    expect(mails.map((mail) => mail.to_address)).toEqual(["alerta.cli@exemplo.com"]);
  });
});
