import crypto from "node:crypto";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { HttpBindings } from "@hono/node-server";
import { Hono, type MiddlewareHandler } from "hono";
import { createRequestHandler, type ServerBuild } from "react-router";

/**
 * The production HTTP server around the React Router app: static files, compression, security
 * headers with a per-request CSP nonce, and the client's address for per-address limits.
 * createApp() builds it the same way for `npm start` and for tests (no port needed).
 */

type AppEntryExports = {
  securityHeaders(options: { nonce: string; https?: boolean }): Record<string, string>;
};

export type AppOptions = {
  build: ServerBuild;
  /** Folder with the browser assets (build/client). */
  clientDir: string;
  /** Take the client's address from X-Forwarded-For (only behind a proxy you control). */
  trustProxy: boolean;
  https: boolean;
};

export function createApp(options: AppOptions) {
  const app = new Hono<{ Bindings: HttpBindings; Variables: { cspNonce: string } }>();
  const entry = options.build.entry.module as unknown as AppEntryExports;
  const handler = createRequestHandler(options.build, "production");
  const clientRoot = path.relative(process.cwd(), options.clientDir) || ".";

  app.use("*", compressResponses);

  // Security headers on every response; the nonce also reaches the page through the load context.
  app.use("*", async (c, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    c.set("cspNonce", nonce);
    await next();
    for (const [name, value] of Object.entries(entry.securityHeaders({ nonce, https: options.https }))) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
  });

  // Fingerprinted build assets never change: cache them for a year.
  app.use(
    "/assets/*",
    serveStatic({
      root: clientRoot,
      onFound: (_path, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
    }),
  );
  // Other public files (favicon, preview image): an hour.
  app.use(
    "*",
    serveStatic({
      root: clientRoot,
      onFound: (_path, c) => c.header("Cache-Control", "public, max-age=3600"),
    }),
  );

  app.all("*", async (c) => {
    const clientIp = resolveClientIp(c.req.raw.headers, c.env?.incoming?.socket?.remoteAddress, options.trustProxy);
    // Overwrite whatever the client sent: downstream code trusts this header.
    c.req.raw.headers.set("x-client-ip", clientIp);
    return handler(c.req.raw, { cspNonce: c.get("cspNonce"), clientIp });
  });

  return app;
}

export function resolveClientIp(headers: Headers, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return (socketAddress ?? "unknown").replace(/^::ffff:/, "");
}

const COMPRESSIBLE = /^(text\/(html|css|plain|xml|javascript)|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;

/**
 * gzip for text responses. Event streams are skipped on purpose: compression buffers, and a
 * buffered stream delivers nothing until the buffer fills.
 */
const compressResponses: MiddlewareHandler = async (c, next) => {
  await next();
  const type = c.res.headers.get("Content-Type") ?? "";
  if (
    !c.res.body ||
    c.req.method === "HEAD" ||
    c.res.headers.has("Content-Encoding") ||
    type.startsWith("text/event-stream") ||
    !COMPRESSIBLE.test(type) ||
    !/\bgzip\b/.test(c.req.header("Accept-Encoding") ?? "")
  ) {
    return;
  }
  const length = Number(c.res.headers.get("Content-Length") ?? "NaN");
  if (length < 1024) return;
  c.res = new Response(c.res.body.pipeThrough(new CompressionStream("gzip")), c.res);
  // Hono copies the previous response's headers onto the new one: fix them up afterwards.
  c.res.headers.delete("Content-Length");
  c.res.headers.set("Content-Encoding", "gzip");
  c.res.headers.append("Vary", "Accept-Encoding");
};
