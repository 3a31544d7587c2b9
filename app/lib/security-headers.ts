/**
 * Security headers for every response. The Content-Security-Policy allows scripts only from our
 * origin or carrying this request's nonce, so an injected <script> (say, through a listing's text)
 * does not run. A page shared from the public cache has no nonce: it lists the sha256 hashes of
 * exactly the inline scripts it carries instead (docs/decisions/006-public-page-cache.md).
 * Styles allow inline because server-rendered style attributes (image boxes, component
 * libraries) need it; they cannot run code.
 */
export function securityHeaders(options: {
  nonce?: string;
  scriptHashes?: string[];
  dev?: boolean;
  https?: boolean;
  /** More img-src sources (the map's tile provider, issue 22). */
  imageSources?: string[];
  /** Origins the page may frame (frame-src); none by default, so default-src 'self' applies. */
  frameSources?: readonly string[];
}): Record<string, string> {
  const scriptSources = [
    "'self'",
    ...(options.nonce ? [`'nonce-${options.nonce}'`] : []),
    ...(options.scriptHashes ?? []),
    ...(options.dev ? ["'unsafe-eval'"] : []),
  ];
  const csp = [
    "default-src 'self'",
    `script-src ${scriptSources.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...(options.imageSources ?? []).filter(Boolean)].join(" "),
    "font-src 'self'",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "media-src 'self'",
    ...(options.frameSources?.length ? [`frame-src ${options.frameSources.join(" ")}`] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
  if (options.https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
