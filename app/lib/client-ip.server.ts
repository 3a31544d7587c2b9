import type { AppLoadContext } from "react-router";

/**
 * The visitor's address for per-address limits. Our HTTP server (server/app.ts) puts it in the
 * load context and overwrites any X-Client-IP header the client sent, so it cannot be forged.
 */
export function clientIp(request: Request, context?: Partial<AppLoadContext>): string {
  return context?.clientIp || request.headers.get("x-client-ip") || "unknown";
}
