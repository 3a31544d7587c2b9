import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, openPostgres, queryRows } from "~/db/client.server";
import { leads } from "~/db/schema";
import { enqueueLeadAlert } from "~/features/mail/lead-alert.server";
import { startMailWorker } from "~/features/mail/worker.server";
import type { Runtime } from "~/runtime.server";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { type ReceivedMail, startSmtpServer } from "../helpers/smtp-server";
import { postgresTarget, startTcpProxy } from "../helpers/tcp-proxy";

/**
 * Issue 21, finding 16: the new-lead alert after a database fault. The database goes away while
 * the SMTP server is accepting an alert, so the sender cannot record that it was sent; when it
 * comes back, every alert must go out exactly once, within a minute — with two senders at work,
 * as two app processes on PostgreSQL.
 *
 * The outage: on PostgreSQL the worker reaches the server through a TCP proxy that the test cuts
 * (every connection dropped, new ones refused). The embedded database lives inside this process
 * and cannot go away, so there the outbox table is renamed for the outage: every statement the
 * sender runs on it fails in the database, as it would against a server that is down.
 */

const NOTIFY = "corretor@falhas.com.br";
const ALERTS = 6;
/** Longer than the worker's lease below, so an expired claim cannot hide a duplicate. */
const OUTAGE_MS = 5000;
const LEASE_SECONDS = 2;

/** `senders` database handles that all lose the database during the outage (two app processes). */
type Outage = { dbs: Database[]; begin(): Promise<void>; end(): Promise<void>; close(): Promise<void> };

async function outageFor(test: TestRuntime): Promise<Outage> {
  if (test.kind === "pglite") {
    const pglite = test.runtime.database.pglite!;
    return {
      dbs: [test.runtime.db, test.runtime.db],
      begin: () => pglite.exec("alter table outbox rename to outbox_during_outage").then(() => {}),
      end: () => pglite.exec("alter table outbox_during_outage rename to outbox").then(() => {}),
      close: async () => {},
    };
  }
  // The outage: the proxy in front of PostgreSQL cuts every connection and refuses new ones.
  const proxy = await startTcpProxy(postgresTarget(test.runtime.env.DATABASE_URL!));
  const proxied = proxy.urlFor(test.runtime.env.DATABASE_URL!);
  const handles = [await openPostgres(proxied, 4), await openPostgres(proxied, 4)];
  return {
    dbs: handles.map((handle) => handle.db),
    begin: () => proxy.refuse(),
    end: () => proxy.accept(),
    async close() {
      for (const handle of handles) await handle.close().catch(() => {});
      await proxy.close();
    },
  };
}

describe.each(DATABASE_KINDS)("new-lead alerts through a database outage on %s", (kind) => {
  let test: TestRuntime;

  beforeAll(async () => {
    test = await startTestRuntime(kind);
  });
  afterAll(async () => {
    await test.stop();
  });

  it("every alert goes out exactly once, within a minute of the database's return", async () => {
    const outage = await outageFor(test);
    const leadIds: string[] = [];
    for (let i = 0; i < ALERTS; i++) {
      await test.runtime.db.transaction(async (tx) => {
        const [lead] = await tx
          .insert(leads)
          .values({ full_name: `Lead da Falha ${i}`, phone: `(84) 99000-00${10 + i}` })
          .returning({ id: leads.id });
        leadIds.push(lead.id);
        await enqueueLeadAlert(tx, test.runtime.env, [NOTIFY], {
          leadId: lead.id,
          fullName: `Lead da Falha ${i}`,
          phone: `(84) 99000-00${10 + i}`,
          email: null,
          interest: "comprar",
          message: null,
          source: "contato",
          property: null,
        });
      });
    }

    // While the second alert waits for the SMTP server's "accepted", the database goes away.
    let recoveredAt = 0;
    let recovered: Promise<void> | undefined;
    const smtp = await startSmtpServer({
      async beforeAccept(_mail: ReceivedMail, index: number) {
        if (index !== 1) return;
        await outage.begin();
        recovered = new Promise<void>((resolve) =>
          setTimeout(() => {
            void outage.end().then(() => {
              recoveredAt = Date.now();
              resolve();
            });
          }, OUTAGE_MS),
        );
      },
    });
    // Two senders, as two app processes on PostgreSQL would run: the one that was sending when
    // the database went away must record its send before the other takes the row again.
    const workers = outage.dbs.map((db) =>
      startMailWorker({ ...test.runtime, db, env: { ...test.runtime.env, SMTP_URL: smtp.url } } as Runtime, { leaseSeconds: LEASE_SECONDS, pollMs: 500 }),
    );
    try {
      await vi.waitFor(() => expect(recovered).toBeDefined(), { timeout: 30_000, interval: 100 });
      await recovered;
      // Every alert within a minute of the return: all six Message-IDs at the SMTP server, and
      // every row recorded as sent (so nothing is left that could go out again).
      await vi.waitFor(
        async () => {
          expect(new Set(smtp.messages.map((m) => m.messageId)).size).toBe(ALERTS);
          const [{ sent }] = await queryRows<{ sent: number }>(
            test.runtime.db,
            sql`select count(*)::int as sent from outbox where status = 'sent'`,
          );
          expect(Number(sent)).toBe(ALERTS);
        },
        { timeout: 60_000, interval: 250 },
      );
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await smtp.stop();
      await outage.close();
    }
    expect(recoveredAt).toBeGreaterThan(0);
    // Exactly once: one message per Message-ID, one alert per lead, each row sent at its first attempt.
    expect(smtp.messages).toHaveLength(ALERTS);
    expect(new Set(smtp.messages.map((m) => m.subject))).toEqual(new Set(leadIds.map((_, i) => `Novo lead: Lead da Falha ${i}`)));
    const rows = await queryRows<{ status: string; attempts: number }>(test.runtime.db, sql`select status, attempts from outbox`);
    expect(rows.map((row) => [row.status, Number(row.attempts)])).toEqual(Array.from({ length: ALERTS }, () => ["sent", 1]));
  }, 120_000);
});
