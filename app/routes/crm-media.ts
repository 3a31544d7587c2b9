import { data } from "react-router";
import { requireStaff } from "~/features/auth/guard.server";
import { deleteUnusedMedia } from "~/features/media/cleanup.server";
import { ImageRejectedError, MAX_UPLOAD_BYTES, storeImage } from "~/features/media/pipeline.server";
import { watermarkText } from "~/features/media/watermark.server";
import { errorFields, logger } from "~/lib/logger.server";
import { getRuntime } from "~/runtime.server";
import type { Route } from "./+types/crm-media";

/**
 * /crm/midia — photo uploads from the property dialog, one file per request (so each file has
 * its own progress bar), and the clean-up of uploads from a dialog that was cancelled.
 * Staff only, checked here: a script posting without a session gets 401/403.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { api: true });
  const runtime = await getRuntime();

  if (request.headers.get("content-type")?.toLowerCase().includes("application/json")) {
    const body = (await request.json().catch(() => null)) as { intent?: string; urls?: unknown } | null;
    if (body?.intent !== "discard" || !Array.isArray(body.urls)) return data({ error: "Pedido inválido" }, { status: 400 });
    const urls = body.urls.filter((url): url is string => typeof url === "string").slice(0, 100);
    // Only photos no listing shows are deleted, so a discard cannot remove a saved photo.
    return { deleted: await deleteUnusedMedia(runtime, urls) };
  }

  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_UPLOAD_BYTES + 64 * 1024) return data({ error: "arquivo maior que 5 MB" }, { status: 413 });
  let upload: { bytes: Buffer; portrait: boolean };
  try {
    upload = await readUploadedFile(request);
  } catch (error) {
    if (error instanceof UploadTooLargeError) return data({ error: error.message }, { status: 413 });
    return data({ error: error instanceof ImageRejectedError ? error.message : "envio inválido" }, { status: 400 });
  }
  try {
    // A listing photo gets the watermark when the broker turned it on (issue 22); a portrait never.
    const watermark = upload.portrait ? null : await watermarkText(runtime.db);
    const stored = await storeImage(runtime, upload.bytes, { watermark });
    return { url: stored.url };
  } catch (error) {
    if (error instanceof ImageRejectedError) return data({ error: error.message }, { status: 400 });
    logger("crm").error({ ...errorFields(error) }, "upload could not be stored");
    return data({ error: "falha ao salvar a imagem" }, { status: 500 });
  }
}

// Not a subclass of the pipeline's error: a route module's top level may not use server code.
class UploadTooLargeError extends Error {}

/** The "file" field of a multipart body, reading no more than 5 MB (plus the form's framing). */
async function readUploadedFile(request: Request): Promise<{ bytes: Buffer; portrait: boolean }> {
  if (!request.body) throw new ImageRejectedError("nenhum arquivo enviado");
  const limit = MAX_UPLOAD_BYTES + 64 * 1024;
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw new UploadTooLargeError("arquivo maior que 5 MB");
    }
    chunks.push(value);
  }
  const form = await new Response(Buffer.concat(chunks), {
    headers: { "content-type": request.headers.get("content-type") ?? "" },
  }).formData();
  const file = form.get("file");
  if (!(file instanceof Blob)) throw new ImageRejectedError("nenhum arquivo enviado");
  return { bytes: Buffer.from(await file.arrayBuffer()), portrait: form.get("purpose") === "portrait" };
}

export function loader() {
  return new Response("Método não permitido: envie a foto com POST.", { status: 405, headers: { Allow: "POST" } });
}
