import fs from "node:fs";
import http from "node:http";
import { E2E_ADMIN } from "../playwright.config";
import { JITTER_MS, SETTLE_MS } from "../app/features/live/live-client";
import { ms, percentile, startServer } from "./helpers";

/**
 * Live updates on this machine (2 cores), the embedded database, one process:
 *  1. memory per open stream, with 500 streams;
 *  2. time from a database change to each of 500 streams receiving it (median, p99, last);
 *  3. what one change costs when 100 open list pages revalidate (each waits the browser's
 *     settle + random jitter, then fetches its data): requests served, time until the last page
 *     has fresh data.
 * Figures are printed, never asserted.
 */

const PORT = 3302;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

type Stream = { received: (since: number) => Promise<number>; close(): void };

function openStream(baseUrl: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const waiters: ((at: number) => void)[] = [];
    const request = http.get(`${baseUrl}/api/events`, { agent }, (response) => {
      let buffer = "";
      let ready = false;
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let boundary: number;
        while ((boundary = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          if (event.includes("event: ready") && !ready) {
            ready = true;
            resolve({
              received: () => new Promise((done) => waiters.push(done)),
              close: () => request.destroy(),
            });
          } else if (event.includes("event: change")) {
            const at = performance.now();
            for (const waiter of waiters.splice(0)) waiter(at);
          }
        }
      });
    });
    request.on("error", reject);
  });
}

function rssMegabytes(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((row) => row.startsWith("VmRSS:"))!;
  return Number(line.replace(/\D/g, "")) / 1024;
}

async function signIn(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/auth`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl },
    body: new URLSearchParams({ intent: "login", ...E2E_ADMIN }).toString(),
    redirect: "manual",
  });
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function anyPropertyId(baseUrl: string): Promise<string> {
  const html = await (await fetch(`${baseUrl}/imoveis`)).text();
  return /href="\/imoveis\/([0-9a-f-]{36})"/.exec(html)![1];
}

let featured = false;
async function changeSomething(baseUrl: string, cookie: string, id: string) {
  featured = !featured;
  const response = await fetch(`${baseUrl}/crm/imoveis`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: baseUrl },
    body: JSON.stringify({ intent: "featured", id, featured }),
  });
  if (!response.ok) throw new Error(`change failed: ${response.status}`);
}

const server = await startServer(PORT);
try {
  const pid = server.process.pid!;
  const cookie = await signIn(server.url);
  const propertyId = await anyPropertyId(server.url);
  // Warm up the server's code paths.
  for (let i = 0; i < 10; i++) await (await fetch(`${server.url}/imoveis`)).text();

  // 1. Memory per stream.
  const before = rssMegabytes(pid);
  const streams: Stream[] = [];
  for (let i = 0; i < 500; i++) streams.push(await openStream(server.url));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = rssMegabytes(pid);
  console.log(`500 open streams: server RSS ${before.toFixed(1)} MB → ${after.toFixed(1)} MB, ${(((after - before) * 1024) / 500).toFixed(1)} KB per stream`);

  // 2. Change → every stream.
  const latencies: number[] = [];
  const lasts: number[] = [];
  for (let run = 0; run < 5; run++) {
    const waiting = streams.map((stream) => stream.received(0));
    const started = performance.now();
    await changeSomething(server.url, cookie, propertyId);
    const arrivals = await Promise.all(waiting);
    const run_latencies = arrivals.map((at) => at - started);
    latencies.push(...run_latencies);
    lasts.push(Math.max(...run_latencies));
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  console.log(
    `database change → 500 streams (5 changes, from sending the change): median ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}, last stream median ${ms(percentile(lasts, 50))}`,
  );
  for (const stream of streams.splice(100)) stream.close();

  // 3. 100 list pages revalidating after one change.
  const served: number[] = [];
  const pageResults = await (async () => {
    const waiting = streams.map(async (stream, index) => {
      await stream.received(0);
      // The browser's wait before reloading (live-client.ts): settle time plus jitter.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + Math.random() * JITTER_MS));
      const response = await fetch(`${server.url}/imoveis.data${index % 2 ? "?tipo=casa" : ""}`, { headers: { Connection: "keep-alive" } });
      await response.arrayBuffer();
      served.push(response.status);
      return performance.now();
    });
    const started = performance.now();
    await changeSomething(server.url, cookie, propertyId);
    const done = await Promise.all(waiting);
    return { started, done };
  })();
  const last = Math.max(...pageResults.done) - pageResults.started;
  const ok = served.filter((status) => status === 200).length;
  console.log(
    `one change with 100 open list pages: ${served.length} data requests served (${ok} OK), last page fresh after ${ms(last)} (of which up to ${SETTLE_MS + JITTER_MS} ms is the deliberate spread)`,
  );
  for (const stream of streams) stream.close();
} finally {
  agent.destroy();
  await server.stop();
}
