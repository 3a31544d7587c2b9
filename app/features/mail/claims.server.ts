import { sql } from "drizzle-orm";
import { type Database, queryRows } from "~/db/client.server";
import { errorFields, logger } from "~/lib/logger.server";

/**
 * The database side of sending one outbox row: claiming it with a short lease, keeping the lease
 * while the SMTP server works, and recording the result — retried until the database answers,
 * because a result that is not recorded is a message sent twice.
 */

const log = logger("mail");

/**
 * How long a claim keeps other senders off a row. Short, so that a row claimed by a process that
 * died (kill -9, a lost machine) goes out again soon: the lease is renewed every third of it
 * while its message is being sent, so a slow SMTP server does not lose it.
 */
export const LEASE_SECONDS = 30;

export type ClaimedRow = {
  id: string;
  kind: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  link_token: string | null;
  /** 'Avise-me' digests: the List-Unsubscribe address (holds the link's placeholder). */
  list_unsubscribe: string | null;
  /** A visit's .ics (issue 25), attached by the sender. */
  ics_attachment: string | null;
  attempts: number;
};

/**
 * Takes the oldest due row (SKIP LOCKED: two senders never take the same one), or null. With
 * `takeExpired: false` only rows nobody has claimed: a row whose lease ran out during a database
 * outage may have been sent by a sender still waiting to record it (see the worker).
 */
export async function claimNext(db: Database, leaseSeconds: number, takeExpired = true): Promise<ClaimedRow | null> {
  const [row] = await queryRows<ClaimedRow>(
    db,
    sql`
      update outbox
      set locked_until = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
      where id = (
        select id from outbox
        where status = 'pending' and next_attempt_at <= now()
          and (locked_until is null or (${takeExpired} and locked_until < now()))
        order by created_at
        limit 1
        for update skip locked
      )
      returning id, kind, to_address, reply_to, subject, text_body, html_body, link_token, list_unsubscribe, ics_attachment, attempts`,
  );
  return row ? { ...row, attempts: Number(row.attempts) } : null;
}

/**
 * Renews the claim on `id` every third of the lease until stopped. A renewal that fails (the
 * database is away) is tried again at the next tick.
 */
export function holdLease(db: Database, id: string, leaseSeconds: number): { stop(): void } {
  const timer = setInterval(() => {
    db.execute(sql`
      update outbox set locked_until = now() + make_interval(secs => ${leaseSeconds})
      where id = ${id} and status = 'pending' and locked_until is not null`).catch(() => {});
  }, (leaseSeconds * 1000) / 3);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

export type Outcome =
  | { kind: "sent" }
  | { kind: "retry"; delaySeconds: number; error: string }
  | { kind: "failed"; error: string };

export function recordOutcome(db: Database, id: string, outcome: Outcome): Promise<unknown> {
  if (outcome.kind === "sent") {
    // The sealed link goes with the send: from now on no copy of the database can open it.
    return db.execute(sql`
      update outbox set status = 'sent', sent_at = now(), locked_until = null, last_error = null, link_token = null
      where id = ${id}`);
  }
  if (outcome.kind === "failed") {
    return db.execute(sql`
      update outbox set status = 'failed', locked_until = null, last_error = ${outcome.error}, link_token = null
      where id = ${id}`);
  }
  return db.execute(sql`
    update outbox set
      status = 'pending',
      next_attempt_at = now() + make_interval(secs => ${outcome.delaySeconds}),
      locked_until = null,
      last_error = ${outcome.error}
    where id = ${id}`);
}

/** Waits between tries of a write that failed: quick at first, then every 2 s. */
const RECORD_RETRY_MS = [100, 250, 500, 1000, 2000];
/** After shutdown began, how long a write keeps being tried (the worker's stop waits 5 s). */
const RECORD_GRACE_MS = 3000;

/**
 * Runs `write` until the database takes it. Only a shutdown ends the tries early (after a short
 * grace): the row then keeps its claim and is sent again once the lease runs out — the one case
 * left in which a message can arrive twice (README, "E-mail").
 */
export async function recordUntilDone(write: () => Promise<unknown>, signal?: AbortSignal, onError?: () => void): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await write();
      if (attempt > 0) log.info({ tries: attempt + 1 }, "send recorded after the database came back");
      return true;
    } catch (error) {
      onError?.();
      if (attempt === 0) log.warn(errorFields(error), "could not record a send; trying until the database answers");
      if (signal?.aborted) {
        const since = abortedAt(signal);
        if (Date.now() - since > RECORD_GRACE_MS) {
          log.error(errorFields(error), "shutting down before a send could be recorded");
          return false;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS[Math.min(attempt, RECORD_RETRY_MS.length - 1)]));
    }
  }
}

const abortTimes = new WeakMap<AbortSignal, number>();

/** When `signal` was first seen aborted (AbortSignal does not keep the time itself). */
function abortedAt(signal: AbortSignal): number {
  let at = abortTimes.get(signal);
  if (at === undefined) {
    at = Date.now();
    abortTimes.set(signal, at);
  }
  return at;
}
