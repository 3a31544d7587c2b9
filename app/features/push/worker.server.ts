import type { Agent } from "node:https";
import { sql } from "drizzle-orm";
import webPush, { WebPushError } from "web-push";
import { type Database, JOB_LOCKS, queryRows, withJobLock } from "~/db/client.server";
import { recordUntilDone } from "~/features/mail/claims.server";
import { type LeaseWorker, startLeaseWorker } from "~/lib/lease-worker.server";
import { errorFields, logger } from "~/lib/logger.server";
import type { Runtime } from "~/features/runtime/handle.server";
import { runPushSchedule } from "./schedule.server";
import { loadVapidKeys, type VapidKeys } from "./vapid.server";

/**
 * Sends the queued pushes (decision 030), the way the mail worker sends the outbox: claim one row
 * with a short lease (SKIP LOCKED), post it to the push service outside any transaction, record
 * the outcome — retried until the database answers — before claiming the next. The push service's
 * 404/410 means the device unsubscribed: its subscription (and its queued pushes) go. The same
 * loop runs the scheduled alerts (reminders, visits, new matches) under a job lock.
 */

const log = logger("push");

export const PUSH_LEASE_SECONDS = 30;
/** A push is about now: a few quick retries, then it is given up. */
export const PUSH_RETRY_DELAYS_SECONDS = [30, 2 * 60, 10 * 60, 30 * 60];
export const PUSH_MAX_ATTEMPTS = PUSH_RETRY_DELAYS_SECONDS.length + 1;
export const PUSH_POLL_MS = 5000;
/** How often the scheduled alerts are looked for (a reminder is due to the minute). */
export const SCHEDULE_MS = 20_000;
/** How long the push service keeps a push for a phone that is off: an hour-old alert is news no more. */
const TTL_SECONDS = 3600;
const SEND_TIMEOUT_MS = 20_000;
const STOP_WAIT_MS = 5000;

export type PushDeliveryResult = { sent: number; failed: number; retried: number; gone: number };

export type PushDeliveryOptions = {
  signal?: AbortSignal;
  leaseSeconds?: number;
  takeExpiredLeases?: boolean;
  onDatabaseError?: () => void;
  /** Tests reach their own HTTPS push service through an agent that trusts its certificate. */
  agent?: Agent;
};

type ClaimedPush = {
  id: string;
  event_key: string;
  subscription_id: string;
  kind: string;
  title: string;
  body: string;
  url: string;
  attempts: number;
  endpoint: string;
  p256dh: string;
  auth: string;
};

async function claimNext(db: Database, leaseSeconds: number, takeExpired: boolean): Promise<ClaimedPush | null> {
  const [row] = await queryRows<ClaimedPush>(
    db,
    sql`
      with claimed as (
        update push_messages
        set locked_until = now() + make_interval(secs => ${leaseSeconds}), attempts = attempts + 1
        where id = (
          select id from push_messages
          where status = 'pending' and next_attempt_at <= now()
            and (locked_until is null or (${takeExpired} and locked_until < now()))
          order by created_at
          limit 1
          for update skip locked
        )
        returning id, event_key, subscription_id, kind, title, body, url, attempts
      )
      select c.*, s.endpoint, s.p256dh, s.auth
      from claimed c join push_subscriptions s on s.id = c.subscription_id`,
  );
  return row ? { ...row, attempts: Number(row.attempts) } : null;
}

function holdLease(db: Database, id: string, leaseSeconds: number): { stop(): void } {
  const timer = setInterval(() => {
    db.execute(sql`
      update push_messages set locked_until = now() + make_interval(secs => ${leaseSeconds})
      where id = ${id} and status = 'pending' and locked_until is not null`).catch(() => {});
  }, (leaseSeconds * 1000) / 3);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

type PushOutcome =
  | { kind: "sent" }
  | { kind: "gone" }
  | { kind: "retry"; delaySeconds: number; error: string }
  | { kind: "failed"; error: string };

function recordOutcome(db: Database, row: ClaimedPush, outcome: PushOutcome): Promise<unknown> {
  switch (outcome.kind) {
    case "sent":
      return db.transaction(async (tx) => {
        await tx.execute(sql`update push_messages set status = 'sent', sent_at = now(), locked_until = null, last_error = null where id = ${row.id}`);
        await tx.execute(sql`update push_subscriptions set last_used_at = now() where id = ${row.subscription_id}`);
      });
    case "gone":
      // The device unsubscribed (or the browser's data was cleared): the row goes with it.
      return db.execute(sql`delete from push_subscriptions where id = ${row.subscription_id}`);
    case "failed":
      return db.execute(sql`update push_messages set status = 'failed', locked_until = null, last_error = ${outcome.error} where id = ${row.id}`);
    case "retry":
      return db.execute(sql`
        update push_messages set status = 'pending', locked_until = null, last_error = ${outcome.error},
          next_attempt_at = now() + make_interval(secs => ${outcome.delaySeconds})
        where id = ${row.id}`);
  }
}

/** What the notification shows and opens; the service worker (public/crm-sw-push.js) reads it. */
export function pushPayload(row: Pick<ClaimedPush, "title" | "body" | "url" | "event_key">): string {
  return JSON.stringify({ title: row.title, body: row.body, url: row.url, tag: row.event_key });
}

/** Posts one push; never throws: the push service's answer becomes the outcome to record. */
async function sendRow(keys: VapidKeys, row: ClaimedPush, agent: Agent | undefined): Promise<PushOutcome> {
  try {
    await webPush.sendNotification({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, pushPayload(row), {
      vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: TTL_SECONDS,
      urgency: "high",
      timeout: SEND_TIMEOUT_MS,
      contentEncoding: "aes128gcm",
      ...(agent ? { agent } : {}),
    });
    return { kind: "sent" };
  } catch (error) {
    const status = error instanceof WebPushError ? error.statusCode : undefined;
    if (status === 404 || status === 410) return { kind: "gone" };
    // The status or the error's code only: a push service's body may quote the endpoint.
    const code = status ? `HTTP ${status}` : ((error as { code?: string })?.code ?? "erro de rede");
    const transient = status === undefined || status === 429 || status >= 500;
    const giveUp = !transient || row.attempts >= PUSH_MAX_ATTEMPTS;
    log.warn({ id: row.id, kind: row.kind, attempts: row.attempts, status, code, gaveUp: giveUp }, giveUp ? "push failed for good" : "push will be retried");
    if (giveUp) return { kind: "failed", error: code };
    return { kind: "retry", error: code, delaySeconds: PUSH_RETRY_DELAYS_SECONDS[Math.min(row.attempts, PUSH_RETRY_DELAYS_SECONDS.length) - 1] ?? 30 };
  }
}

/** Sends every due push, one row at a time (see the module's comment). */
export async function deliverDuePush(runtime: Pick<Runtime, "db" | "env">, options: PushDeliveryOptions = {}): Promise<PushDeliveryResult> {
  const result: PushDeliveryResult = { sent: 0, failed: 0, retried: 0, gone: 0 };
  const { db, env } = runtime;
  const leaseSeconds = options.leaseSeconds ?? PUSH_LEASE_SECONDS;
  let keys: VapidKeys | undefined;
  for (;;) {
    if (options.signal?.aborted) break;
    const row = await claimNext(db, leaseSeconds, options.takeExpiredLeases ?? true);
    if (!row) break;
    keys ??= await loadVapidKeys(db, env);
    const lease = holdLease(db, row.id, leaseSeconds);
    try {
      const outcome = await sendRow(keys, row, options.agent);
      await recordUntilDone(() => recordOutcome(db, row, outcome), options.signal, options.onDatabaseError);
      result[outcome.kind === "retry" ? "retried" : outcome.kind]++;
    } finally {
      lease.stop();
    }
  }
  if (result.sent + result.failed + result.retried + result.gone > 0) log.info(result, "push round");
  return result;
}

export type PushWorker = LeaseWorker;

export const idlePushWorker: PushWorker = { wake() {}, stop: async () => {} };

/**
 * Sends in rounds (lib/lease-worker.server.ts): at start, every PUSH_POLL_MS and on `wake()`;
 * every SCHEDULE_MS a round first looks for due reminders, visits and new matches (one process at
 * a time: the job lock).
 */
export function startPushWorker(
  runtime: Pick<Runtime, "db" | "env" | "database">,
  options: { pollMs?: number; scheduleMs?: number; leaseSeconds?: number; agent?: Agent; now?: () => Date } = {},
): PushWorker {
  let lastSchedule = 0;
  const scheduleMs = options.scheduleMs ?? SCHEDULE_MS;
  return startLeaseWorker({
    round: async (round) => {
      if (Date.now() - lastSchedule >= scheduleMs) {
        lastSchedule = Date.now();
        await withJobLock(runtime.database, JOB_LOCKS.pushSchedule, () => runPushSchedule(runtime, options.now?.() ?? new Date()))
          .then((done) => done && done.queued + done.emails > 0 && log.info(done, "scheduled alerts queued"))
          .catch((error) => log.error(errorFields(error), "scheduled alerts round failed"));
      }
      await deliverDuePush(runtime, { ...round, leaseSeconds: options.leaseSeconds, agent: options.agent });
    },
    pollMs: options.pollMs ?? PUSH_POLL_MS,
    stopWaitMs: STOP_WAIT_MS,
    onRoundError: (error) => log.error(errorFields(error), "push round failed"),
  });
}
