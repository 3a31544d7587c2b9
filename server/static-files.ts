import fs from "node:fs";
import { serveStatic } from "@hono/node-server/serve-static";
import type { MiddlewareHandler } from "hono";

/**
 * The files of the build on disk (build/client), served by server/app.ts before the app. Text
 * files were compressed at build (vite.config.ts writes .br and .gz beside them): served as they
 * are, never compressed again per request.
 */

/** Fingerprinted build assets (/assets/*) never change: cached for a year. */
export const buildAssets = (root: string) => filesFrom(root, "public, max-age=31536000, immutable");

/** Other public files (favicon, preview image, app icons): an hour. */
export const publicFiles = (root: string) => filesFrom(root, "public, max-age=3600");

function filesFrom(root: string, cacheControl: string): MiddlewareHandler {
  return serveStatic({
    root,
    precompressed: true,
    onFound: (file, c) => {
      c.header("Cache-Control", cacheControl);
      if (hasPrecompressed(file)) c.header("Vary", "Accept-Encoding");
    },
  });
}

/**
 * A build file (script, style sheet) found on disk is not a document: a Content-Security-Policy,
 * frame or referrer rule on it does nothing, yet its ~600 bytes came with each of the dozen
 * scripts every public page loads, inside the page's JavaScript budget (decision 003). It keeps
 * nosniff, which does apply to scripts and styles, and HSTS. A page answered under /assets/ (a
 * 404) is a document and gets the whole set.
 */
export function isBuildFile(path: string, response: Response): boolean {
  return path.startsWith("/assets/") && response.status === 200 && !(response.headers.get("Content-Type") ?? "").startsWith("text/html");
}

export function buildFileHeaders(https: boolean): Record<string, string> {
  return https ? { "X-Content-Type-Options": "nosniff", "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : { "X-Content-Type-Options": "nosniff" };
}

const precompressedCache = new Map<string, boolean>();
/** Whether the build wrote compressed copies of this file (so the answer varies by encoding). */
function hasPrecompressed(file: string): boolean {
  if (/\.(br|gz)$/.test(file)) return true;
  let known = precompressedCache.get(file);
  if (known === undefined) {
    known = fs.existsSync(`${file}.gz`);
    precompressedCache.set(file, known);
  }
  return known;
}
