/**
 * The one spelling of a request's path that the HTTP server's rules see (server/app.ts; issue 21,
 * finding 4). React Router matches routes case-insensitively, after percent-decoding and with or
 * without a trailing slash, so /SOBRE, /s%6Fbre and /sobre/ all render /sobre. Rules written for
 * one spelling (no-store on /crm, the page cache's keys and bounds, the log's redaction of feed
 * tokens, the property-view counter) must therefore see the path the router will see, or /CRM
 * escapes them and every spelling becomes a cache entry of its own.
 */

/**
 * Paths whose rest is a name where case matters: a photo's storage key, a feed's secret token, a
 * build file's hash. Only the prefix itself is brought to lower case.
 */
const CASE_SENSITIVE_PREFIX = /^\/(?:media|calendario|feeds\/vrsync|assets)(?=\/)/i;
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/**
 * The canonical form of a URL's path (already parsed by WHATWG URL rules, so without dot
 * segments): percent-escapes of unreserved characters decoded and the others in upper case
 * (RFC 3986, 6.2.2), one slash between segments, no trailing slash, and lower case outside the
 * case-sensitive names above. Escapes of reserved characters stay escaped: %2F is not a slash.
 */
export function canonicalPath(pathname: string): string {
  let path = pathname.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  // A path starting with // would name another host in a Location header.
  path = path.replace(/\/{2,}/g, "/");
  if (!path.startsWith("/")) path = `/${path}`;
  if (path.length > 1) path = path.replace(/\/$/, "");
  const prefix = CASE_SENSITIVE_PREFIX.exec(path)?.[0];
  if (prefix) return prefix.toLowerCase() + path.slice(prefix.length);
  // Lower case, but escapes keep their upper-case hex digits.
  return path.toLowerCase().replace(/%[0-9a-f]{2}/g, (escape) => escape.toUpperCase());
}

/**
 * A path as the log may show it. A calendar feed's and the portals' listing feed's file names are
 * their secret tokens (/calendario/<token>.ics, /feeds/vrsync/<token>.xml): logs are read by more
 * people, and kept longer, than the feeds.
 */
export function loggedPath(pathname: string): string {
  const path = canonicalPath(pathname);
  if (path.startsWith("/calendario/")) return "/calendario/[token]";
  if (path.startsWith("/feeds/vrsync/")) return "/feeds/vrsync/[token]";
  return path;
}
