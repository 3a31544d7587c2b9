import { sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { queryRows } from "~/db/client.server";
import { brokerProfileNow } from "~/features/settings/settings.server";
import type { Env } from "~/lib/env.server";
import { errorFields, logger } from "~/lib/logger.server";
import type { Runtime } from "~/runtime.server";

const log = logger("mail");

/** Messages claimed per round; each is sent and recorded before the next. */
const BATCH_SIZE = 10;
/**
 * How long a claim keeps other senders off a row. It must outlast a whole batch (the SMTP
 * timeouts below bound each message), otherwise a second process could take a row that is still
 * being sent; rows not reached before the claim runs low are handed back unsent.
 */
const CLAIM_SECONDS = 10 * 60;
const CLAIM_MARGIN_MS = 60 * 1000;
const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 };
/** Wait after attempt n (1-based) before the next one; after the last, the row is `failed`. */
export const RETRY_DELAYS_SECONDS = [60, 5 * 60, 30 * 60, 2 * 3600, 6 * 3600, 12 * 3600];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
const POLL_MS = 5000;
/** How long shutdown waits for the message being sent (the server's hard exit comes at 15 s). */
const STOP_WAIT_MS = 5000;

type ClaimedRow = {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
  created_at: Date;
};

export type DeliveryResult = { sent: number; failed: number; retried: number };

/** "Name <addr@host>": MAIL_FROM, or the site's name at a no-reply address on PUBLIC_URL's host. */
export function mailSender(env: Pick<Env, "MAIL_FROM" | "publicUrl">): string {
  if (env.MAIL_FROM) return env.MAIL_FROM;
  const name = brokerProfileNow().siteName.replace(/["\\\r\n]/g, "");
  return `"${name}" <nao-responda@${mailDomain(env)}>`;
}

function mailDomain(env: Pick<Env, "publicUrl">): string {
  const host = new URL(env.publicUrl).hostname;
  // Hosts like "localhost" are not a mail domain, but a Message-ID only needs to be unique.
  return host.replace(/^\[|\]$/g, "") || "localhost";
}

/**
 * The same id on every attempt at one row, so a message re-sent after a crash between the
 * server's "accepted" and our "sent" is recognisably the same message (clients and Gmail fold
 * duplicates by Message-ID).
 */
export function messageIdFor(rowId: string, env: Pick<Env, "publicUrl">): string {
  return `<outbox.${rowId}@${mailDomain(env)}>`;
}

/**
 * Sends every due message once: claims rows (one statement, SKIP LOCKED, so two senders never
 * hold the same row), sends each outside any transaction (the embedded database has a single
 * connection, and a slow SMTP server must not hold it), and records each result right after its
 * send, which keeps the window for a duplicate after a crash to one message.
 * Without SMTP_URL nothing happens: rows stay pending until SMTP is configured.
 */
export async function deliverDueMail(
  runtime: Pick<Runtime, "db" | "env">,
  options: { signal?: AbortSignal } = {},
): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, failed: 0, retried: 0 };
  const { db, env } = runtime;
  if (!env.SMTP_URL) return result;
  const transport = nodemailer.createTransport({ url: env.SMTP_URL, ...SMTP_TIMEOUTS });
  const from = mailSender(env);
  try {
    for (;;) {
      if (options.signal?.aborted) break;
      const claimedAt = Date.now();
      const rows = await claimDue(runtime, BATCH_SIZE);
      if (rows.length === 0) break;
      for (const [index, row] of rows.entries()) {
        // Shutting down, or the claim runs low: hand the rest back for the next round (anyone's).
        if (options.signal?.aborted || Date.now() - claimedAt > CLAIM_SECONDS * 1000 - CLAIM_MARGIN_MS) {
          await release(runtime, rows.slice(index).map((r) => r.id));
          return finish(result);
        }
        try {
          await transport.sendMail({
            from,
            to: row.to_address,
            subject: row.subject,
            text: row.text_body,
            ...(row.html_body ? { html: row.html_body } : {}),
            messageId: messageIdFor(row.id, env),
            headers: { "Auto-Submitted": "auto-generated" },
          });
          await db.execute(sql`
            update outbox set status = 'sent', sent_at = now(), locked_until = null, last_error = null
            where id = ${row.id}`);
          result.sent++;
        } catch (error) {
          const answer = smtpAnswer(error);
          const giveUp = row.attempts >= MAX_ATTEMPTS;
          const delay = RETRY_DELAYS_SECONDS[Math.min(row.attempts, RETRY_DELAYS_SECONDS.length) - 1] ?? 60;
          await db.execute(sql`
            update outbox set
              status = ${giveUp ? "failed" : "pending"},
              next_attempt_at = now() + make_interval(secs => ${delay}),
              locked_until = null,
              last_error = ${answer}
            where id = ${row.id}`);
          if (giveUp) result.failed++;
          else result.retried++;
          log.warn(
            { id: row.id, kind: row.kind, attempts: row.attempts, gaveUp: giveUp, ...smtpCodes(error) },
            giveUp ? "message failed for good" : "message will be retried",
          );
        }
      }
      if (rows.length < BATCH_SIZE) break;
    }
  } finally {
    transport.close();
  }
  return finish(result);
}

function finish(result: DeliveryResult): DeliveryResult {
  if (result.sent + result.failed + result.retried > 0) log.info(result, "delivery round");
  return result;
}

async function claimDue(runtime: Pick<Runtime, "db">, limit: number): Promise<ClaimedRow[]> {
  return queryRows<ClaimedRow>(
    runtime.db,
    sql`
      with claimed as (
        update outbox
        set locked_until = now() + make_interval(secs => ${CLAIM_SECONDS}), attempts = attempts + 1
        where id in (
          select id from outbox
          where status = 'pending' and next_attempt_at <= now()
            and (locked_until is null or locked_until < now())
          order by created_at
          limit ${limit}
          for update skip locked
        )
        returning id, kind, to_address, subject, text_body, html_body, attempts, created_at
      )
      -- RETURNING follows the update's scan, not the subquery's order: oldest first again, in
      -- SQL, because a JavaScript Date drops the microseconds that tell close rows apart.
      select * from claimed order by created_at`,
  ).then((rows) => rows.map((row) => ({ ...row, attempts: Number(row.attempts), created_at: new Date(row.created_at) })));
}

/** Hands unsent rows back as if never claimed (the attempt did not happen). */
async function release(runtime: Pick<Runtime, "db">, ids: string[]): Promise<void> {
  for (const id of ids) {
    await runtime.db.execute(sql`
      update outbox set locked_until = null, attempts = greatest(attempts - 1, 0)
      where id = ${id} and status = 'pending'`);
  }
}

/**
 * What the SMTP server answered (e.g. "451 4.3.0 Tente mais tarde"), or the connection error's
 * code and message. Addresses are cut out: servers like to quote the rejected recipient.
 */
export function smtpAnswer(error: unknown): string {
  const e = (error ?? {}) as { response?: unknown; code?: unknown; message?: unknown };
  const raw =
    typeof e.response === "string" && e.response
      ? e.response
      : [typeof e.code === "string" ? e.code : undefined, typeof e.message === "string" ? e.message : "erro desconhecido"]
          .filter(Boolean)
          .join(": ");
  return raw
    .replace(/<?[^\s<>@]+@[^\s<>@]+>?/g, "<…>")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 500);
}

function smtpCodes(error: unknown): Record<string, unknown> {
  const e = (error ?? {}) as { code?: unknown; responseCode?: unknown; command?: unknown };
  return {
    code: typeof e.code === "string" ? e.code : undefined,
    responseCode: typeof e.responseCode === "number" ? e.responseCode : undefined,
    command: typeof e.command === "string" ? e.command.split(" ")[0] : undefined,
  };
}

export type MailWorker = {
  /** Whether SMTP_URL is set (the CRM warns admins when it is not). */
  enabled: boolean;
  /** Deliver soon: call after the transaction that enqueued a message has committed. */
  wake(): void;
  /** Stops polling and waits for a round in progress (before the database closes). */
  stop(): Promise<void>;
};

/** A worker that does nothing: SMTP off, or a runtime without background tasks (tests, CLI). */
export function idleMailWorker(env: Pick<Env, "SMTP_URL">): MailWorker {
  return { enabled: Boolean(env.SMTP_URL), wake() {}, stop: async () => {} };
}

/**
 * Polls every few seconds (other processes' messages, retries that came due) and on `wake()`.
 * One round at a time per process; a wake during a round runs another one after it.
 */
export function startMailWorker(runtime: Runtime): MailWorker {
  if (!runtime.env.SMTP_URL) {
    log.warn("SMTP_URL is not set: e-mail stays in the outbox until it is configured");
    return idleMailWorker(runtime.env);
  }
  let stopped = false;
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  let soon: ReturnType<typeof setTimeout> | undefined;

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = deliverDueMail(runtime, { signal: stopping.signal })
      .then(() => undefined)
      .catch((error) => log.error(errorFields(error), "delivery round failed"))
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          run();
        }
      });
  };

  const timer = setInterval(run, POLL_MS);
  timer.unref();
  soon = setTimeout(run, 0);
  soon.unref();

  return {
    enabled: true,
    wake() {
      if (stopped) return;
      clearTimeout(soon);
      // A moment's delay folds several enqueues into one round and lets a caller's commit land.
      soon = setTimeout(run, 50);
      soon.unref();
    },
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      clearTimeout(soon);
      // The round ends after the message in flight. A send slower than this wait may be cut by
      // the database closing: its row stays claimed and is retried when the claim expires.
      if (running) {
        let timeout: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([running, new Promise((resolve) => (timeout = setTimeout(resolve, STOP_WAIT_MS)))]);
        clearTimeout(timeout);
      }
    },
  };
}
