import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as eventsLoader } from "~/routes/api-events";
import { createSignedInUser, insertLead, insertProperty, type TestUser } from "../helpers/factories";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";

const context = { cspNonce: "n", clientIp: "192.0.2.30" };

/** Opens /api/events like a browser would, and collects what arrives. */
async function openStream(cookie?: string) {
  const controller = new AbortController();
  const request = new Request("http://localhost:3000/api/events", {
    headers: cookie ? { Cookie: cookie } : {},
    signal: controller.signal,
  });
  const response = (await eventsLoader({ request, params: {}, context } as never)) as Response;
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let done = false;
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    done = true;
  })();
  return {
    response,
    text: () => text,
    ended: () => done,
    async waitFor(pattern: RegExp, timeoutMs = 5000) {
      const started = Date.now();
      while (!pattern.test(text)) {
        if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${pattern} in:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => controller.abort(),
  };
}

describe.each(DATABASE_KINDS)("live updates on %s", (kind) => {
  let test: TestRuntime;
  let staff: TestUser;
  beforeAll(async () => {
    test = await startTestRuntime(kind);
    staff = await createSignedInUser(test.runtime, "corretor");
  });
  afterAll(async () => {
    await test.stop();
  });

  it("streams with the headers that keep proxies from buffering", async () => {
    const stream = await openStream();
    expect(stream.response.headers.get("Content-Type")).toBe("text/event-stream; charset=utf-8");
    expect(stream.response.headers.get("X-Accel-Buffering")).toBe("no");
    expect(stream.response.headers.get("Cache-Control")).toContain("no-transform");
    await stream.waitFor(/event: ready\ndata: \{"staff":false\}/);
    stream.close();
  });

  it("tells staff and visitors that properties changed, even through plain SQL", async () => {
    const visitor = await openStream();
    const broker = await openStream(staff.cookie);
    await broker.waitFor(/"staff":true/);
    await test.runtime.db.execute(sql`update properties set featured = not featured where false`);
    await visitor.waitFor(/"table":"properties"/);
    await broker.waitFor(/"table":"properties"/);
    visitor.close();
    broker.close();
  });

  it("never tells a visitor's stream about leads", async () => {
    const visitor = await openStream();
    const broker = await openStream(staff.cookie);
    await visitor.waitFor(/event: ready/);
    await broker.waitFor(/event: ready/);
    await insertLead(test.runtime, { full_name: "Lead Secreto" });
    await broker.waitFor(/"table":"leads"/);
    // Then a property change: once the visitor has it, anything about the lead would have come first.
    await insertProperty(test.runtime);
    await visitor.waitFor(/"table":"properties"/);
    expect(visitor.text()).not.toContain("leads");
    expect(visitor.text()).not.toContain("Lead Secreto");
    expect(broker.text()).not.toContain("Lead Secreto");
    visitor.close();
    broker.close();
  });

  it("releases a stream's place when the browser leaves, and ends all streams on shutdown", async () => {
    const before = test.runtime.live.size;
    const stream = await openStream();
    await stream.waitFor(/event: ready/);
    expect(test.runtime.live.size).toBe(before + 1);
    stream.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(test.runtime.live.size).toBe(before);
  });

  if (kind === "postgres") {
    it("reconnects the PostgreSQL listener by itself and asks pages to reload once", async () => {
      const stream = await openStream(staff.cookie);
      await stream.waitFor(/event: ready/);
      // Kill the listening connection from outside, as a server restart or a network drop would.
      const admin = new pg.Client({ connectionString: test.runtime.env.DATABASE_URL });
      await admin.connect();
      const killed = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%' and pid <> pg_backend_pid()",
      );
      await admin.end();
      expect(killed.rowCount).toBeGreaterThan(0);
      await stream.waitFor(/"table":"\*"/, 8000);
      await insertLead(test.runtime, { full_name: "Depois da reconexão" });
      await stream.waitFor(/"table":"leads"/);
      stream.close();
    });
  }
});
