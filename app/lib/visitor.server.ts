import { isbot } from "isbot";

/**
 * Who counts as a visitor in the site's figures (property views, issue 12; WhatsApp taps, issue
 * 25): one rule for both, used by the HTTP server (server/request-rules.ts) and by the /whatsapp
 * redirect. Not counted: bots and link-preview crawlers (isbot; no User-Agent counts as a bot),
 * prefetches and prerenders (hovering fetches before any click), and any request with
 * better-auth's session cookie: staff looking at the site are not visitors. The cookie is not
 * validated (that would cost a database read); a visitor has none, and an expired one left in a
 * former staff browser is a rare undercount we accept.
 */

// better-auth's cookie, with the __Secure- prefix on https.
export const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

export function isCountedVisitor(headers: Headers): boolean {
  const agent = headers.get("user-agent");
  if (!agent || isbot(agent)) return false;
  if (/prefetch|prerender/i.test(`${headers.get("sec-purpose") ?? ""} ${headers.get("purpose") ?? ""} ${headers.get("x-moz") ?? ""}`)) return false;
  return !SESSION_COOKIE.test(headers.get("cookie") ?? "");
}
