import { Duplex } from "node:stream";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { preferredEncoding } from "./page-cache";

const COMPRESSIBLE = /^(text\/(html|css|plain|xml|javascript)|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;

/**
 * Compression of answers made for one request (cached pages and static files come compressed):
 * brotli at a fast quality when the client takes it, gzip otherwise. Event streams are skipped
 * on purpose: compression buffers, and a buffered stream delivers nothing until the buffer fills.
 */
export const compressResponses: MiddlewareHandler = async (c, next) => {
  await next();
  const type = c.res.headers.get("Content-Type") ?? "";
  if (
    !c.res.body ||
    c.req.method === "HEAD" ||
    c.res.headers.has("Content-Encoding") ||
    type.startsWith("text/event-stream") ||
    !COMPRESSIBLE.test(type)
  ) {
    return;
  }
  const length = Number(c.res.headers.get("Content-Length") ?? "NaN");
  if (length < 1024) return;
  const encoding = preferredEncoding(c.req.header("Accept-Encoding"));
  if (encoding === "identity") return;
  const compressor =
    encoding === "br"
      ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } })
      : zlib.createGzip({ level: 6 });
  const { readable, writable } = Duplex.toWeb(compressor) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
  c.res = new Response(c.res.body.pipeThrough({ readable, writable }), c.res);
  // Hono copies the previous response's headers onto the new one: fix them up afterwards.
  c.res.headers.delete("Content-Length");
  c.res.headers.set("Content-Encoding", encoding);
  c.res.headers.append("Vary", "Accept-Encoding");
};
