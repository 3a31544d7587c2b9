/** What the HTTP server (server/app.ts) hands every loader and action as `context`. */
export type AppLoadContext = {
  /** This request's CSP nonce. */
  cspNonce: string;
  /** The connecting client's address (from the socket, or X-Forwarded-For with TRUST_PROXY). */
  clientIp: string;
  /**
   * Set by entry.server's handleError when a loader or action failed because the database could
   * not answer: the server then answers 503 with Retry-After instead of 500 (issue 21).
   */
  databaseUnavailable?: boolean;
};

declare module "react-router" {
  interface AppLoadContext {
    cspNonce: string;
    clientIp: string;
    databaseUnavailable?: boolean;
  }
}
