import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
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

/** One request of a load: when it started and how it ended ("error": no answer at all). */
export type Outcome = { started: number; status: number | "error"; retried?: boolean; error?: string };

/**
 * Visitors through the load balancer until `stop()`: two request loops browsing `paths`, each of
 * `pages` (real browser tabs) moving between them, and two loops posting visit bookings with
 * unique names. `retried`: nginx's X-Upstream names two servers, the first of which did not answer.
 */
export function startVisitorLoad(options: { request: APIRequestContext; pages: Page[]; paths: string[]; origin: string }) {
  const { request, paths } = options;
  const gets: (Outcome & { path: string })[] = [];
  const posts: (Outcome & { name: string })[] = [];
  let loading = true;
  const retried = (upstream?: string) => upstream?.includes(",") ?? false;
  const browse = async (worker: number) => {
    for (let i = worker; loading; i++) {
      const path = paths[i % paths.length];
      const started = Date.now();
      let error: string | undefined;
      const response = await request.get(path, { timeout: 15_000 }).then(
        async (answer) => (await answer.body(), answer),
        (reason: Error) => ((error = reason.message.split("\n")[0]), null),
      );
      gets.push({ path, started, status: response?.status() ?? "error", retried: retried(response?.headers()["x-upstream"]), error });
    }
  };
  const postLeads = async (worker: number) => {
    for (let i = 0; loading; i++) {
      const name = `Carga ${worker}-${i} ${crypto.randomBytes(3).toString("hex")}`;
      const started = Date.now();
      let error: string | undefined;
      const response = await request
        .post("/agendar-visita", { form: { full_name: name, phone: "(84) 98888-1234" }, headers: { Origin: options.origin }, timeout: 15_000 })
        .catch((reason: Error) => ((error = reason.message.split("\n")[0]), null));
      // Retried only when the first server refused the connection: nothing had been sent to it.
      posts.push({ name, started, status: response?.status() ?? "error", retried: retried(response?.headers()["x-upstream"]), error });
    }
  };
  const surf = async (page: Page) => {
    for (let i = 0; loading; i++) {
      const path = paths[i % paths.length];
      const started = Date.now();
      let error: string | undefined;
      const status = await page.goto(path, { timeout: 15_000 }).then(
        (response) => response?.status() ?? 0,
        (reason: Error) => ((error = reason.message.split("\n")[0]), "error" as const),
      );
      gets.push({ path: `browser ${path}`, started, status, error });
    }
  };
  const running = Promise.all([browse(0), browse(2), postLeads(0), postLeads(1), ...options.pages.map(surf)]);
  return {
    gets,
    posts,
    async stop() {
      loading = false;
      await running;
    },
  };
}
