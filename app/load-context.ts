/** What the HTTP server (server/app.ts) hands every loader and action as `context`. */
export type AppLoadContext = {
  /** This request's CSP nonce. */
  cspNonce: string;
  /** The connecting client's address (from the socket, or X-Forwarded-For with TRUST_PROXY). */
  clientIp: string;
};

declare module "react-router" {
  interface AppLoadContext {
    cspNonce: string;
    clientIp: string;
  }
}
