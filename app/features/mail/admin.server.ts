import { and, count, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import type { Runtime } from "~/features/runtime/handle.server";

/** What the CRM tells admins about outgoing e-mail. */
export type MailStatus = {
  /** SMTP_URL is set. */
  enabled: boolean;
  /** Messages waiting (all of them when e-mail is off). */
  pending: number;
  /** Messages that gave up after the last attempt. */
  failed: number;
  /** Messages still being retried after an error. */
  retrying: number;
};

export async function getMailStatus(runtime: Pick<Runtime, "db" | "env">): Promise<MailStatus> {
  const rows = await runtime.db
    .select({
      status: outbox.status,
      withError: sql<boolean>`${outbox.last_error} is not null`,
      n: count(),
    })
    .from(outbox)
    .where(inArray(outbox.status, ["pending", "failed"]))
    .groupBy(outbox.status, sql`${outbox.last_error} is not null`);
  const status: MailStatus = { enabled: Boolean(runtime.env.SMTP_URL), pending: 0, failed: 0, retrying: 0 };
  for (const row of rows) {
    const n = Number(row.n);
    if (row.status === "failed") status.failed += n;
    else {
      status.pending += n;
      if (row.withError) status.retrying += n;
    }
  }
  return status;
}

export type ProblemMail = {
  id: string;
  kind: string;
  to: string;
  subject: string;
  status: "pending" | "failed";
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  nextAttemptAt: Date;
};

/**
 * Messages that failed for good, then those still being retried after an error; newest first.
 * The recipient is shown (admins only), never the body.
 */
export async function listProblemMail(db: Database, limit = 100): Promise<ProblemMail[]> {
  const rows = await db
    .select({
      id: outbox.id,
      kind: outbox.kind,
      to: outbox.to_address,
      subject: outbox.subject,
      status: outbox.status,
      attempts: outbox.attempts,
      lastError: outbox.last_error,
      createdAt: outbox.created_at,
      nextAttemptAt: outbox.next_attempt_at,
    })
    .from(outbox)
    .where(or(eq(outbox.status, "failed"), and(eq(outbox.status, "pending"), isNotNull(outbox.last_error))))
    .orderBy(sql`case when ${outbox.status} = 'failed' then 0 else 1 end`, desc(outbox.created_at))
    .limit(limit);
  return rows.map((row) => ({ ...row, status: row.status === "failed" ? "failed" : "pending" }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isMailId(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/**
 * 'Tentar novamente': the message goes back to pending, due now, with a fresh series of attempts.
 * A message already sent, or being sent this moment, is left alone. Returns whether it was reset.
 */
export async function retryMail(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(outbox)
    .set({ status: "pending", attempts: 0, next_attempt_at: sql`now()`, locked_until: null })
    .where(
      and(
        eq(outbox.id, id),
        inArray(outbox.status, ["pending", "failed"]),
        sql`(${outbox.locked_until} is null or ${outbox.locked_until} < now())`,
      ),
    )
    .returning({ id: outbox.id });
  return rows.length > 0;
}

