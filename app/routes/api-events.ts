import { openEventStream } from "~/features/live/stream.server";
import { clientIp } from "~/lib/client-ip.server";
import type { Route } from "./+types/api-events";

/**
 * /api/events — the live-update stream (Server-Sent Events). Anyone may listen; the server
 * decides from the session what this stream hears: staff also hear about leads. Events say only
 * which table changed, never its rows: the page reloads its own data through its loaders.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return openEventStream(request, clientIp(request, context));
}
