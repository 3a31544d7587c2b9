import { largeJpegOnDemand } from "~/features/media/large-jpeg.server";
import { isMediaFileName, isMediaId, LARGE_JPEG_FILE } from "~/features/media/urls";
import { errorFields, logger } from "~/lib/logger.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/media";

/**
 * Serves stored photos (/media/{id}/{file}) from whichever storage driver is configured. A file
 * never changes once written (a new photo gets a new id), so browsers and CDNs may keep it forever.
 * The large JPEG of a photo uploaded before it existed is made on its first request (issue 13).
 */
export async function loader({ params }: Route.LoaderArgs) {
  const { id, file } = params;
  if (!isMediaId(id) || !isMediaFileName(file)) return new Response("Não encontrado.", { status: 404 });
  const runtime = await getRuntime();
  let stored = await runtime.storage.get(`${id}/${file}`);
  if (!stored && file === LARGE_JPEG_FILE) {
    try {
      const body = await largeJpegOnDemand(runtime, id);
      stored = body ? { body, contentType: "image/jpeg" } : null;
    } catch (error) {
      logger("media").error({ ...errorFields(error) }, "large JPEG could not be made");
      return new Response("Erro interno. Tente novamente.", { status: 500, headers: { "Cache-Control": "no-store" } });
    }
  }
  if (!stored) return new Response("Não encontrado.", { status: 404, headers: { "Cache-Control": "no-store" } });
  return new Response(new Uint8Array(stored.body), {
    headers: {
      "Content-Type": stored.contentType,
      "Content-Length": String(stored.body.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      "Cross-Origin-Resource-Policy": "same-site",
    },
  });
}
