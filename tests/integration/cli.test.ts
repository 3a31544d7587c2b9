import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user, user_roles } from "~/db/schema";
import { createUserWithPassword } from "~/features/auth/auth.server";
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

  beforeAll(async () => {
    test = await startTestRuntime(kind);
    databaseUrl = test.runtime.env.DATABASE_URL;
    const created = await createUserWithPassword(test.runtime.auth, { email, password: "uma-senha-longa-9", name: "Recém Chegada" });
    await test.runtime.db.update(user).set({ emailVerified: false }).where(eq(user.id, created.id));
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

  async function roleAndVerified() {
    const { openDatabase } = await import("~/db/client.server");
    const handle = await openDatabase({ databaseUrl, dataDir: test.dataDir });
    try {
      const [row] = await handle.db
        .select({ verified: user.emailVerified, role: user_roles.role })
        .from(user)
        .leftJoin(user_roles, eq(user_roles.user_id, user.id))
        .where(eq(user.email, email));
      return row;
    } finally {
      await handle.close();
    }
  }

  it("refuses an unconfirmed account, and with --force confirms it and grants the role", async () => {
    await expect(runCli(["role:set", email, "corretor"], () => {})).rejects.toThrow(/ainda não confirmou o email/);
    expect(await roleAndVerified()).toEqual({ verified: false, role: null });

    const out: string[] = [];
    await runCli(["role:set", email, "corretor", "--force"], (line) => out.push(line));
    expect(out.join("\n")).toContain("agora é corretor");
    expect(await roleAndVerified()).toEqual({ verified: true, role: "corretor" });
  });
});
