import { eq } from "drizzle-orm";
import { user_roles } from "~/db/schema";
import { SESSION_IDLE_SECONDS, SESSION_MAX_SECONDS } from "~/features/auth/auth.server";
import { getSessionUser, getUserRole } from "~/features/auth/guard.server";
import { getRuntime, type Runtime } from "~/features/runtime/handle.server";
import type { LiveSubscriber } from "./hub.server";

/** What a stream that is not allowed any more, or one too many, is told. */
export const TOO_MANY_STREAMS = "Muitas conexões abertas a partir deste endereço. Feche outras abas e tente de novo.";

/**
 * Whether a staff stream may go on: the session still exists and is valid (not signed out, not
 * revoked by a password change, not expired) and the user still has a role. Read-only: an open
 * tab must not count as activity, or it would keep an idle session alive for ever.
 */
async function staffStillAllowed(runtime: Pick<Runtime, "auth" | "db">, headers: Headers, userId: string): Promise<boolean> {
  const found = await runtime.auth.api.getSession({ headers, query: { disableRefresh: true } });
  if (!found || found.user.id !== userId) return false;
  // The idle and absolute ends of a staff session (features/auth/sessions.server.ts), read only.
  const now = Date.now();
  if (now - new Date(found.session.createdAt).getTime() > SESSION_MAX_SECONDS * 1000) return false;
  if (now - new Date(found.session.updatedAt).getTime() > SESSION_IDLE_SECONDS * 1000) return false;
  const [row] = await runtime.db.select({ role: user_roles.role }).from(user_roles).where(eq(user_roles.user_id, userId)).limit(1);
  return row !== undefined;
}

/**
 * Opens one Server-Sent Events stream for this request: 429 when the client's address already
 * holds the most streams, and for staff a recheck of session and role at every heartbeat.
 */
export async function openEventStream(request: Request, address: string): Promise<Response> {
  const runtime = await getRuntime();
  const user = await getSessionUser(request);
  const staff = user ? (await getUserRole(user.id)) !== null : false;
  // Keep only the cookie: the rechecks need nothing else from the request.
  const headers = new Headers();
  const cookie = request.headers.get("cookie");
  if (cookie) headers.set("cookie", cookie);

  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let unsubscribe = () => {};
  const end = () => {
    unsubscribe();
    try {
      controller?.close();
    } catch {
      // Already closed.
    }
  };
  const subscriber: LiveSubscriber = {
    staff,
    address,
    send: (chunk) => controller?.enqueue(encoder.encode(chunk)),
    close: end,
    stillAllowed: staff && user ? () => staffStillAllowed(runtime, headers, user.id) : undefined,
  };
  const subscribed = runtime.live.trySubscribe(subscriber);
  if (!subscribed) {
    return new Response(TOO_MANY_STREAMS, {
      status: 429,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "30", "Cache-Control": "no-store" },
    });
  }
  unsubscribe = subscribed;

  const stream = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      // retry: the browser's own reconnect is not used (the client schedules its own back-off),
      // but a sane value helps any other client.
      streamController.enqueue(encoder.encode(`retry: 5000\nevent: ready\ndata: {"staff":${staff}}\n\n`));
    },
    cancel() {
      unsubscribe();
    },
  });
  // When the browser leaves, release the stream and its place in the hub (and its address's).
  if (request.signal.aborted) end();
  else request.signal.addEventListener("abort", end, { once: true });

  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      // Tell proxies (nginx) not to buffer: a buffered stream delivers nothing until it fills.
      "X-Accel-Buffering": "no",
    },
  });
}
