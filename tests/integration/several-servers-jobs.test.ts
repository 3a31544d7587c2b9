import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, JOB_LOCKS, openPostgres, withJobLock } from "~/db/client.server";
import { listing_alerts, outbox } from "~/db/schema";
import { runRetentionIfDue } from "~/features/privacy/retention.server";
import { housekeepingRound } from "~/runtime.server";
import { insertProperty } from "../helpers/factories";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";

/**
 * The periodic jobs of two servers on one PostgreSQL (README "Several servers"): each server has
 * its own connections (here a second handle on the same database, as server B's), and both run
 * their rounds at the same moment. The browser test (tests/e2e/multi-server.spec.ts) covers the
 * e-mail outbox and the view batches; these rounds run hourly or daily, too seldom for it.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("two servers' periodic jobs on one PostgreSQL", () => {
  let serverA: TestRuntime;
  let serverB: DatabaseHandle;

  beforeAll(async () => {
    serverA = await startTestRuntime("postgres");
    serverB = await openPostgres(serverA.runtime.env.DATABASE_URL!, 4);
  });
  afterAll(async () => {
    await serverB?.close();
    await serverA?.stop();
  });

  it("the hourly housekeeping sends each 'Avise-me' digest once", async () => {
    const a = serverA.runtime;
    await a.db.insert(listing_alerts).values({
      email: "comprador@exemplo.com",
      query: "finalidade=venda&bairro=Servid%C3%B3polis",
      status: "confirmed",
      confirmed_at: new Date(Date.now() - 24 * 3600_000),
    });
    await insertProperty(a, { title: "Apto novo em Servidópolis", purpose: "venda", neighborhood: "Servidópolis" });
    const b = { db: serverB.db, database: serverB, storage: a.storage, env: a.env };
    // Both at once, then each again: the job lock and the day's claim let one digest through.
    await Promise.all([housekeepingRound(a), housekeepingRound(b)]);
    await Promise.all([housekeepingRound(b), housekeepingRound(a)]);
    const digests = await a.db.select({ text: outbox.text_body }).from(outbox).where(eq(outbox.kind, "alert-digest"));
    expect(digests).toHaveLength(1);
    expect(digests[0].text).toContain("Apto novo em Servidópolis");
  });

  it("the daily retention round runs once", async () => {
    const handles = [serverA.runtime.database, serverB];
    const round = (handle: DatabaseHandle) => withJobLock(handle, JOB_LOCKS.retention, () => runRetentionIfDue(handle.longDb));
    const results = [...(await Promise.all(handles.map(round))), ...(await Promise.all(handles.map(round)))];
    // One round ran (its counts); the others found it done today (null) or the lock taken (undefined).
    expect(results.filter((result) => result)).toHaveLength(1);
  });
});
