import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { decrypt } from "http_ece";
import { expect } from "vitest";

/**
 * A Web Push service run by the test (issue 25): HTTPS on 127.0.0.1 with a certificate made here
 * by openssl, accepting POSTs to any path (each path is one subscription's endpoint), recording
 * the encrypted body and headers, answering 201 — or 410 for a path marked gone. And the
 * browser's half: a subscription's keys, and decryption of what arrived (RFC 8291, aes128gcm).
 */

export type ReceivedPush = { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer; at: number };

export type TestPushService = {
  origin: string;
  /** Trusts the service's certificate: give it to the push worker. */
  agent: https.Agent;
  received: ReceivedPush[];
  /** Pushes to `path` from now on get 410 Gone (the browser unsubscribed). */
  gone(path: string): void;
  waitFor(predicate: (push: ReceivedPush) => boolean, timeoutMs?: number): Promise<ReceivedPush>;
  stop(): Promise<void>;
};

export async function startPushService(): Promise<TestPushService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "push-service-"));
  execFileSync(
    "openssl",
    [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"),
      "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  const key = fs.readFileSync(path.join(dir, "key.pem"));
  const cert = fs.readFileSync(path.join(dir, "cert.pem"));
  fs.rmSync(dir, { recursive: true, force: true });

  const received: ReceivedPush[] = [];
  const gonePaths = new Set<string>();
  const waiters = new Set<() => void>();
  const server = https.createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = request.url ?? "/";
      if (request.method !== "POST") {
        response.writeHead(405).end();
        return;
      }
      if (gonePaths.has(url)) {
        response.writeHead(410).end("push subscription has unsubscribed or expired");
        return;
      }
      received.push({ path: url, headers: request.headers, body: Buffer.concat(chunks), at: Date.now() });
      for (const wake of waiters) wake();
      response.writeHead(201, { Location: `${url}/messages/${received.length}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new https.Agent({ ca: cert, keepAlive: false });

  return {
    origin: `https://127.0.0.1:${port}`,
    agent,
    received,
    gone: (p) => gonePaths.add(p),
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching push within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    async stop() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What a browser's pushManager.subscribe() makes: its key pair and auth secret, and the endpoint. */
export type BrowserSubscription = { endpoint: string; path: string; p256dh: string; auth: string; ecdh: crypto.ECDH };

export function browserSubscription(service: Pick<TestPushService, "origin">): BrowserSubscription {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  const p = `/push/${crypto.randomBytes(8).toString("hex")}`;
  return {
    endpoint: service.origin + p,
    path: p,
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: crypto.randomBytes(16).toString("base64url"),
    ecdh,
  };
}

/** The push's JSON as the service worker would read it. */
export function openPush(push: ReceivedPush, subscription: BrowserSubscription): Record<string, unknown> {
  expect(push.headers["content-encoding"]).toBe("aes128gcm");
  const plain = decrypt(push.body, { version: "aes128gcm", privateKey: subscription.ecdh, authSecret: subscription.auth });
  return JSON.parse(plain.toString("utf8"));
}
