import nodemailer, { type Transporter } from "nodemailer";
import { brokerProfileNow } from "~/features/settings/settings.server";
import type { Env } from "~/lib/env.server";
import { type LeaseWorker, startLeaseWorker } from "~/lib/lease-worker.server";
import { errorFields, logger } from "~/lib/logger.server";
import type { Runtime } from "~/features/runtime/handle.server";
import { LINK_UNAVAILABLE, needsLinkToken, openLinkToken, type SecretSource, withLinkToken } from "./sealed-link.server";
import { type ClaimedRow, claimNext, holdLease, LEASE_SECONDS, type Outcome, recordOutcome, recordUntilDone } from "./claims.server";

const log = logger("mail");

const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 };
/** Wait after attempt n (1-based) before the next one; after the last, the row is `failed`. */
export const RETRY_DELAYS_SECONDS = [60, 5 * 60, 30 * 60, 2 * 3600, 6 * 3600, 12 * 3600];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** How often the worker looks for due messages (other processes' messages, retries, a database back). */
export const POLL_MS = 5000;
/** How long shutdown waits for the message being sent (the server's hard exit comes at 15 s). */
const STOP_WAIT_MS = 5000;

export type DeliveryResult = { sent: number; failed: number; retried: number };

export type DeliveryOptions = {
  signal?: AbortSignal;
  /** Tests shorten the lease; production uses LEASE_SECONDS. */
  leaseSeconds?: number;
  /** Take rows whose lease ran out (false for a while after a database error: RECOVERY_GRACE_MS in lib/lease-worker.server.ts). */
  takeExpiredLeases?: boolean;
  /** Told of every database error, so the worker can hold back after it. */
  onDatabaseError?: () => void;
};

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
 * Sends every due message, one row at a time: claim it (a short lease, SKIP LOCKED, so two
 * senders never hold the same row), send it outside any transaction (the embedded database has a
 * single connection, and a slow SMTP server must not hold it), and record the result before
 * claiming the next — retrying that record until the database answers, so a database error never
 * sends a message twice. Without SMTP_URL nothing happens: rows stay pending until it is set.
 */
export async function deliverDueMail(runtime: Pick<Runtime, "db" | "env">, options: DeliveryOptions = {}): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, failed: 0, retried: 0 };
  const { db, env } = runtime;
  if (!env.SMTP_URL) return result;
  const leaseSeconds = options.leaseSeconds ?? LEASE_SECONDS;
  const transport = nodemailer.createTransport({ url: env.SMTP_URL, ...SMTP_TIMEOUTS });
  const from = mailSender(env);
  try {
    for (;;) {
      if (options.signal?.aborted) break;
      const row = await claimNext(db, leaseSeconds, options.takeExpiredLeases ?? true);
      if (!row) break;
      const lease = holdLease(db, row.id, leaseSeconds);
      try {
        const outcome = await sendRow(transport, from, env, row);
        await recordUntilDone(() => recordOutcome(db, row.id, outcome), options.signal, options.onDatabaseError);
        if (outcome.kind === "sent") result.sent++;
        else if (outcome.kind === "failed") result.failed++;
        else result.retried++;
      } finally {
        lease.stop();
      }
    }
  } finally {
    transport.close();
  }
  if (result.sent + result.failed + result.retried > 0) log.info(result, "delivery round");
  return result;
}

/**
 * The bodies as they go out: an account e-mail's link gets its token back. A message whose
 * sealed token is gone or opens with no key we hold (a copy started elsewhere, a changed
 * AUTH_SECRET) is not sent at all: a link without its token helps no one.
 */
function bodiesOf(env: SecretSource, row: ClaimedRow): { text: string; html: string | null; unsubscribe: string | null } | null {
  if (!needsLinkToken(row.text_body) && !needsLinkToken(row.html_body) && !needsLinkToken(row.list_unsubscribe)) {
    return { text: row.text_body, html: row.html_body, unsubscribe: row.list_unsubscribe };
  }
  const token = row.link_token ? openLinkToken(env, row.link_token) : null;
  if (!token) return null;
  return {
    text: withLinkToken(row.text_body, token),
    html: row.html_body === null ? null : withLinkToken(row.html_body, token),
    unsubscribe: row.list_unsubscribe === null ? null : withLinkToken(row.list_unsubscribe, token),
  };
}

/** The message's own headers: a digest's one-click unsubscribe (RFC 8058) besides Auto-Submitted. */
function headersOf(unsubscribe: string | null): Record<string, string> {
  const headers: Record<string, string> = { "Auto-Submitted": "auto-generated" };
  if (unsubscribe) {
    headers["List-Unsubscribe"] = `<${unsubscribe}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  return headers;
}

/** One message to the SMTP server; never throws: the answer becomes the outcome to record. */
async function sendRow(transport: Transporter, from: string, env: Pick<Env, "publicUrl"> & SecretSource, row: ClaimedRow): Promise<Outcome> {
  const bodies = bodiesOf(env, row);
  if (!bodies) {
    log.warn({ id: row.id, kind: row.kind }, "message not sent: its link's token cannot be opened");
    return { kind: "failed", error: LINK_UNAVAILABLE };
  }
  try {
    await transport.sendMail({
      from,
      to: row.to_address,
      ...(row.reply_to ? { replyTo: row.reply_to } : {}),
      subject: row.subject,
      text: bodies.text,
      ...(bodies.html ? { html: bodies.html } : {}),
      messageId: messageIdFor(row.id, env),
      headers: headersOf(bodies.unsubscribe),
      ...(row.ics_attachment ? { attachments: [{ filename: "visita.ics", content: row.ics_attachment, contentType: "text/calendar; charset=utf-8" }] } : {}),
    });
    return { kind: "sent" };
  } catch (error) {
    const giveUp = row.attempts >= MAX_ATTEMPTS;
    log.warn(
      { id: row.id, kind: row.kind, attempts: row.attempts, gaveUp: giveUp, ...smtpCodes(error) },
      giveUp ? "message failed for good" : "message will be retried",
    );
    const answer = smtpAnswer(error);
    if (giveUp) return { kind: "failed", error: answer };
    return { kind: "retry", error: answer, delaySeconds: RETRY_DELAYS_SECONDS[Math.min(row.attempts, RETRY_DELAYS_SECONDS.length) - 1] ?? 60 };
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

export type MailWorker = LeaseWorker & {
  /** Whether SMTP_URL is set (the CRM warns admins when it is not). */
  enabled: boolean;
};

/** A worker that does nothing: SMTP off, or a runtime without background tasks (tests, CLI). */
export function idleMailWorker(env: Pick<Env, "SMTP_URL">): MailWorker {
  return { enabled: Boolean(env.SMTP_URL), wake() {}, stop: async () => {} };
}

/** Delivers the outbox in rounds (lib/lease-worker.server.ts): at start, every POLL_MS and on `wake()`. */
export function startMailWorker(runtime: Pick<Runtime, "db" | "env">, options: { leaseSeconds?: number; pollMs?: number } = {}): MailWorker {
  if (!runtime.env.SMTP_URL) {
    log.warn("SMTP_URL is not set: e-mail stays in the outbox until it is configured");
    return idleMailWorker(runtime.env);
  }
  const worker = startLeaseWorker({
    round: (round) => deliverDueMail(runtime, { ...round, leaseSeconds: options.leaseSeconds }),
    pollMs: options.pollMs ?? POLL_MS,
    stopWaitMs: STOP_WAIT_MS,
    // A round fails only on the database (SMTP answers are recorded as outcomes).
    onRoundError: (error) => log.error(errorFields(error), "delivery round failed"),
  });
  return { enabled: true, ...worker };
}
