import { isMediaFileName, isMediaId } from "~/features/media/urls";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/media";

/**
 * Serves stored photos (/media/{id}/{file}) from whichever storage driver is configured. A file
 * never changes once written (a new photo gets a new id), so browsers and CDNs may keep it forever.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const { id, file } = params;
  if (!isMediaId(id) || !isMediaFileName(file)) return new Response("Not found", { status: 404 });
  const { storage } = await getRuntime();
  const stored = await storage.get(`${id}/${file}`);
  if (!stored) return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  return new Response(new Uint8Array(stored.body), {
    headers: {
      "Content-Type": stored.contentType,
      "Content-Length": String(stored.body.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      "Cross-Origin-Resource-Policy": "same-site",
    },
  });
}
