import { Writable } from "node:stream";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { hydrateAfterPaint } from "~/lib/hydrate-after-paint.server";
import { NonceProvider } from "~/lib/nonce";
import { errorFields, logger } from "~/lib/logger.server";
import { loggedPath } from "~/lib/request-path";
import { createNonce } from "~/lib/security-headers";
import { tileConfig, tileImageSource } from "~/features/properties/map/tiles";
import { pageSecurityHeaders } from "~/features/properties/embed-csp";
import { getEnv } from "~/lib/env.server";
import { DatabaseUnavailableContext } from "~/lib/unavailable-context";
import { isDatabaseUnavailable } from "~/db/availability.server";
import { getRuntime } from "~/runtime.server";

const log = logger("render");

/*
 * The production server (server/main.ts) loads the app's bundle and reaches the process-wide
 * parts through these exports, so the bundle holds the only copy of the database, auth and
 * live-update modules (see docs/decisions/001-one-process-one-bundle.md).
 */
export { startRuntime, stopLiveUpdates, stopRuntime } from "~/runtime.server";
/**
 * The security headers of the page at `path`: the map's tile origin in img-src (decision 018) and,
 * on a property page only, the players' and tours' origins in frame-src (decision 019).
 */
export const securityHeaders: typeof pageSecurityHeaders = (options) =>
  pageSecurityHeaders({ ...options, imageSources: [tileImageSource(tileConfig(getEnv()).url)] });
export { errorFields, getLogger } from "~/lib/logger.server";
export { MAX_UPLOAD_BYTES } from "~/features/media/pipeline.server";
export { countPropertyView } from "~/features/reports/views.server";
/** How long requests wait for a database connection: the overload guard sheds on it (issue 21). */
export { connectionWait } from "~/db/postgres.server";

/**
 * For the public page cache of the Hono server (server/page-cache.ts): every change that can
 * alter a public page, heard as soon as this process hears it: listings and the broker's
 * settings (profile). Leads and visits never show on public pages; "*" (the listener
 * reconnected, events may be lost) clears everything.
 */
export async function onPublicDataChange(listener: () => void): Promise<() => void> {
  const runtime = await getRuntime();
  return runtime.live.onChange((table) => {
    if (table === "properties" || table === "settings" || table === "*") listener();
  });
}

/** PAGE_CACHE_MAX_BYTES: the public page cache's bound (0: no cache). */
export function pageCacheMaxBytes(): number {
  return getEnv().PAGE_CACHE_MAX_BYTES;
}

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The Hono server creates the nonce; `react-router dev` has no server of ours, so make one.
  const nonce = loadContext?.cspNonce ?? createNonce();
  if (!loadContext?.cspNonce) {
    const dev = process.env.NODE_ENV !== "production";
    for (const [name, value] of Object.entries(securityHeaders({ nonce, dev, path: new URL(request.url).pathname }))) {
      responseHeaders.set(name, value);
    }
  }

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers (Google, WhatsApp's preview bot) get the complete page in one piece.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <DatabaseUnavailableContext value={Boolean(loadContext?.databaseUnavailable)}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </DatabaseUnavailableContext>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          // The page is collected whole (it is small, and rendered at once: no public page
          // streams data in later) so that its scripts can be rewritten to start after the
          // first paint (app/lib/hydrate-after-paint.server.ts).
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer | string, _encoding, callback) {
              chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              const html = hydrateAfterPaint(Buffer.concat(chunks).toString("utf8"));
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error({ ...errorFields(error) }, "page could not be rendered");
        },
      },
    );
  });
}

/**
 * Errors thrown by loaders and actions: log the real ones, not aborted requests. Only the error's
 * kind and code locations: a database error's message carries the query's values (a lead's name).
 * React Router's own refusals (405: a POST to a page without a form) are the client's mistake:
 * info, not error. The path as the request log shows it (a feed's token hidden).
 */
export function handleError(error: unknown, { request, context }: { request: Request; context?: AppLoadContext }) {
  // The HTTP server answers such a request 503 + Retry-After instead of 500 (server/app.ts).
  if (context && isDatabaseUnavailable(error)) context.databaseUnavailable = true;
  if (request.signal.aborted) return;
  const where = { method: request.method, path: loggedPath(new URL(request.url).pathname) };
  if (isRouteErrorResponse(error) && error.status < 500) {
    log.info({ ...where, status: error.status }, "request refused");
    return;
  }
  log.error({ ...where, ...errorFields(error) }, "request failed");
}
