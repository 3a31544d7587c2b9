import { expect } from "vitest";
import { deliverDueMail } from "~/features/mail/worker.server";
import type { Runtime } from "~/runtime.server";
import { cookieFrom, makeRequest, settle } from "../helpers/factories";
import type { ReceivedMail, TestSmtpServer } from "../helpers/smtp-server";

/** Shared by the auth*.test.ts files: calling routes as the browser would, and reading e-mails. */

export type RouteFn = (args: never) => unknown;

/** Runs a loader or action with a real Request from an address; a thrown Response is returned. */
export function call(fn: RouteFn, request: Request, ip = "198.51.100.7"): Promise<unknown> {
  return settle(async () => (fn as (args: unknown) => unknown)({ request, params: {}, context: { cspNonce: "n", clientIp: ip } }));
}

/** A loader's or action's answer as status and body, whether it used data(), returned, or threw a Response. */
export function answerOf<T = Record<string, unknown>>(result: unknown): { status: number; body: T; location?: string | null; headers?: Headers } {
  if (result instanceof Response) {
    return { status: result.status, body: {} as T, location: result.headers.get("Location"), headers: result.headers };
  }
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const typed = result as { init: { status?: number } | null; data: T };
    return { status: typed.init?.status ?? 200, body: typed.data };
  }
  return { status: 200, body: result as T };
}

/** Sends what the outbox holds and waits for the e-mail to `to` that matches. */
export async function receiveMail(
  runtime: Runtime,
  smtp: TestSmtpServer,
  to: string,
  match: (mail: ReceivedMail) => boolean = () => true,
  after = 0,
): Promise<ReceivedMail> {
  await deliverDueMail(runtime);
  return smtp.waitFor((mail) => mail.to.includes(to) && match(mail) && smtp.messages.indexOf(mail) >= after, 10_000);
}

/** The link to `path` in an e-mail, as a path and query the test can request. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const found = new RegExp(`https?://[^\\s"<>]+${path.replace(/\//g, "\\/")}\\?token=[\\w-]+`).exec(mail.text);
  expect(found, `a ${path} link in "${mail.subject}"`).toBeTruthy();
  const url = new URL(found![0]);
  expect(url.origin).toBe("http://localhost:3000");
  return url.pathname + url.search;
}

export function tokenOf(link: string): string {
  return new URL(link, "http://localhost:3000").searchParams.get("token")!;
}

export { cookieFrom, makeRequest };
