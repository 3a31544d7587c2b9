import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The Message-ID header, angle brackets included. */
  messageId: string;
  raw: string;
  /** When the server accepted it (ms since the epoch). */
  receivedAt: number;
};

export type TestSmtpServer = {
  /** smtp://127.0.0.1:PORT, for SMTP_URL. */
  url: string;
  /** Every message accepted so far, in order. */
  messages: ReceivedMail[];
  /** How many messages were refused (failFirst). */
  rejected(): number;
  /** The first message (already received or arriving later) that matches. */
  waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
};

/**
 * A real SMTP server on a free port of 127.0.0.1 (no TLS, any or no login accepted), parsing
 * what it accepts with mailparser so tests read subjects and follow links.
 * `failFirst: n` answers the first n messages with 451 (temporary failure), after DATA.
 * `beforeAccept` runs for each message before the server answers "250 accepted" (the sender is
 * waiting for that answer meanwhile), with the message's number (0-based).
 */
export async function startSmtpServer(
  options: { failFirst?: number; beforeAccept?: (mail: ReceivedMail, index: number) => void | Promise<void> } = {},
): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const waiters: { predicate: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];
  let toReject = options.failFirst ?? 0;
  let rejected = 0;
  let accepted = 0;

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "test" });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error) => callback(error));
      stream.on("end", () => {
        if (toReject > 0) {
          toReject--;
          rejected++;
          const error = new Error("4.3.0 Servidor ocupado, tente mais tarde") as Error & { responseCode: number };
          error.responseCode = 451;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw)
          .then(async (parsed) => {
            const mail: ReceivedMail = {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: typeof parsed.html === "string" ? parsed.html : "",
              messageId: parsed.messageId ?? "",
              raw,
              receivedAt: 0,
            };
            await options.beforeAccept?.(mail, accepted++);
            mail.receivedAt = Date.now();
            messages.push(mail);
            for (const waiter of [...waiters]) {
              if (waiter.predicate(mail)) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve(mail);
              }
            }
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });

  // smtp-server emits a client's broken connection (a sender killed mid-session: ECONNRESET) on
  // the server; unheard, that error would end the test process. The sender retries by itself.
  server.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    rejected: () => rejected,
    waitFor(predicate, timeoutMs = 10_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (m: ReceivedMail) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching e-mail within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    stop() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
