import net from "node:net";
import { DEFAULT_TRUSTED_PROXIES, parseProxyEntry } from "../app/lib/env.server";

/**
 * The client's address, for per-address limits (leads, sign-in, event streams). Behind our own
 * proxy (TRUST_PROXY) the connecting address is the proxy's and the client's is in
 * X-Forwarded-For — but only a connection from one of our proxies (TRUSTED_PROXIES) may say so:
 * from anyone else the header is the client's own writing (issue 21, finding 10).
 */

export type ProxyPolicy = {
  /** TRUST_PROXY: read X-Forwarded-For at all. */
  trustProxy: boolean;
  /** TRUST_PROXY_HOPS: how many proxies of ours append to X-Forwarded-For. */
  hops: number;
  /** TRUSTED_PROXIES: where our nearest proxy connects from. */
  trusted: net.BlockList;
};

/** The addresses of TRUSTED_PROXIES (validated at start-up by app/lib/env.server.ts) as a list to check peers against. */
export function proxyList(entries: readonly string[] = DEFAULT_TRUSTED_PROXIES.split(",")): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const parsed = parseProxyEntry(entry);
    if (!parsed) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or a CIDR range`);
    list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

const bare = (address: string) => address.replace(/^::ffff:/, "");

/**
 * The client's address, and whether an X-Forwarded-For header was ignored because the peer is
 * not one of our proxies (worth telling the operator once: behind an unlisted proxy every
 * visitor would share the proxy's address). Each proxy of ours appends the address it saw, so
 * the client is the entry `hops` places from the right; entries further left were written by
 * the client. Without a usable entry, the connecting address.
 */
export function resolveClientIp(headers: Headers, socketAddress: string | undefined, policy: ProxyPolicy): { address: string; ignoredForwardedFor: boolean } {
  const socket = bare(socketAddress ?? "unknown");
  const forwarded = headers.get("x-forwarded-for");
  if (!policy.trustProxy || forwarded === null) return { address: socket, ignoredForwardedFor: false };
  const family = net.isIP(socket);
  if (family === 0 || !policy.trusted.check(socket, family === 4 ? "ipv4" : "ipv6")) return { address: socket, ignoredForwardedFor: true };
  // Several X-Forwarded-For headers arrive joined with ", ": the same list.
  const entries = forwarded
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return { address: socket, ignoredForwardedFor: false };
  // Fewer entries than hops: the request skipped a proxy; the leftmost is what our nearest saw.
  const chosen = bare(entries[Math.max(0, entries.length - policy.hops)]);
  return { address: net.isIP(chosen) ? chosen : socket, ignoredForwardedFor: false };
}
