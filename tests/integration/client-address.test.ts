import fs from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as contactRoute from "~/routes/contact";
import { createApp } from "../../server/app";
import { DATABASE_KINDS, startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { resourceRoutesBuild } from "../helpers/server-build";

/**
 * Whose address a request is (issue 21, finding 10), over real connections to the real HTTP
 * server (server/app.ts) in front of the real contact form, whose per-address lead limit is
 * what a forged address would reset. With TRUST_PROXY, X-Forwarded-For is read only on a
 * connection from TRUSTED_PROXIES (default: this machine); from any other peer the header is the
 * client's own writing and the peer is the client. Here every connection comes from 127.0.0.1,
 * so a list without it makes the test client a stranger, and one with it makes it our proxy.
 */

const PUBLIC_URL = "http://localhost:3000";
const validContact = { name: "Maria Endereço", email: "maria@exemplo.com", phone: "(84) 99999-0000", message: "Quero visitar o apartamento." };

describe.each(DATABASE_KINDS)("client address on %s", (kind) => {
  let test: TestRuntime;
  const servers: http.Server[] = [];

  beforeAll(async () => {
    test = await startTestRuntime(kind, { LEAD_LIMIT_PER_HOUR: "2" });
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await test.stop();
  });

  /** The production server around the contact route, listening on a free port of 127.0.0.1. */
  async function listen(trustedProxies?: string[]): Promise<string> {
    const clientDir = path.join(test.dataDir, "client");
    fs.mkdirSync(clientDir, { recursive: true });
    const build = resourceRoutesBuild({ "routes/contact": { path: "contato", module: contactRoute } }, clientDir);
    const app = createApp({ build, clientDir, publicUrl: PUBLIC_URL, trustProxy: true, trustedProxies, pageCacheMaxBytes: 0 });
    const server = await new Promise<http.Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started as http.Server)) as http.Server;
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** The contact form as its page posts it, with an X-Forwarded-For header. */
  async function contact(base: string, forwarded: string): Promise<number> {
    const response = await fetch(`${base}/contato.data`, {
      method: "POST",
      headers: { "X-Forwarded-For": forwarded, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(validContact),
    });
    await response.body?.cancel();
    return response.status;
  }

  it("from a peer that is not our proxy, a forged X-Forwarded-For changes nothing: the peer is the client", async () => {
    const base = await listen(["10.20.30.40", "fd00::/8"]);
    const statuses: number[] = [];
    for (const forged of ["198.51.100.1", "198.51.100.2", "198.51.100.3", "203.0.113.9, 198.51.100.4"]) statuses.push(await contact(base, forged));
    // LEAD_LIMIT_PER_HOUR is 2: the third post from the same peer is refused, whatever it claims.
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it("from our proxy, the address it appended is the client, each with its own allowance", async () => {
    const base = await listen(["127.0.0.0/8"]);
    for (const client of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) expect(await contact(base, client)).toBe(200);
    expect(await contact(base, "10.0.0.1, 192.0.2.1")).toBe(200);
    expect(await contact(base, "10.0.0.2, 192.0.2.1")).toBe(429);
  });

  it("by default our proxy is this machine (loopback)", async () => {
    const base = await listen();
    for (const client of ["192.0.2.11", "192.0.2.12", "192.0.2.13"]) expect(await contact(base, client)).toBe(200);
  });
});
