import fs from "node:fs";
import path from "node:path";
import { type Nginx, startNginx } from "./nginx";

/** The committed configuration the README shows for several servers. */
export const LOAD_BALANCER_CONF = path.resolve("docs/deploy/nginx-load-balancer.conf");

/**
 * nginx running docs/deploy/nginx-load-balancer.conf itself, with this machine's addresses, port
 * and certificate swapped in (each swap must find its line, so the file cannot drift from the
 * test), plus one test-only header: `X-Upstream`, which server(s) nginx asked for the answer.
 */
export function startLoadBalancer(options: { servers: [number, number]; tlsPort: number }): Promise<Nginx> {
  const original = fs.readFileSync(LOAD_BALANCER_CONF, "utf8");
  return startNginx({
    probeUrl: `https://localhost:${options.tlsPort}/robots.txt`,
    httpBlock: (dir) => {
      const swaps: [string, string][] = [
        ["10.0.0.11:3000", `127.0.0.1:${options.servers[0]}`],
        ["10.0.0.12:3000", `127.0.0.1:${options.servers[1]}`],
        ["listen 443 ssl;", `listen 127.0.0.1:${options.tlsPort} ssl;`],
        ["server_name www.seudominio.com.br;", "server_name localhost;\n  add_header X-Upstream $upstream_addr always;"],
        ["/etc/letsencrypt/live/www.seudominio.com.br/fullchain.pem", `${dir}/cert.pem`],
        ["/etc/letsencrypt/live/www.seudominio.com.br/privkey.pem", `${dir}/key.pem`],
      ];
      let config = original;
      for (const [from, to] of swaps) {
        if (!config.includes(from)) throw new Error(`${LOAD_BALANCER_CONF} no longer has "${from}": update the test with it`);
        config = config.replace(from, to);
      }
      return config;
    },
  });
}

/** A Server-Sent Events stream read in the background; `text()` is everything received so far. */
export async function openEventStream(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal, headers: { Accept: "text/event-stream" } });
  let text = "";
  let ended = false;
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // Aborted, or the server went away.
    } finally {
      ended = true;
    }
  })();
  return {
    status: response.status,
    upstream: response.headers.get("x-upstream") ?? "",
    text: () => text,
    ended: () => ended,
    close: () => controller.abort(),
  };
}
