import { getSessionUser, getUserRole } from "~/features/auth/guard.server";
import type { LiveSubscriber } from "~/features/live/hub.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/api-events";

/**
 * /api/events — the live-update stream (Server-Sent Events). Anyone may listen; the server
 * decides from the session what this stream hears: staff also hear about leads. Events say only
 * which table changed, never its rows: the page reloads its own data through its loaders.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { live } = await getRuntime();
  const user = await getSessionUser(request);
  const staff = user ? (await getUserRole(user.id)) !== null : false;

  const encoder = new TextEncoder();
  let unsubscribe = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const subscriber: LiveSubscriber = {
        staff,
        send: (chunk) => controller.enqueue(encoder.encode(chunk)),
        close: () => {
          unsubscribe();
          controller.close();
        },
      };
      unsubscribe = live.subscribe(subscriber);
      // retry: the browser's own reconnect is not used (the client schedules its own back-off),
      // but a sane value helps any other client.
      controller.enqueue(encoder.encode(`retry: 5000\nevent: ready\ndata: {"staff":${staff}}\n\n`));
      // When the browser leaves, release the stream and its place in the hub.
      request.signal.addEventListener("abort", () => {
        unsubscribe();
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      });
    },
    cancel() {
      unsubscribe();
    },
  });

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
