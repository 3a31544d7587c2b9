import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addListenerCopies, type ListenerCopies } from "../../server/listener-copies";

/**
 * Why the copies exist: while a busy event loop runs one long iteration after another, how many
 * waiting connections does one iteration take in? The clients connect while this process's loop
 * is blocked (the kernel completes their handshakes and queues them); then a setImmediate
 * callback, which runs once per iteration after the poll phase, notes how many have been accepted.
 */

const CLIENTS = 16;

/**
 * Connects CLIENTS sockets and writes `flag` once all are connected; then prints each response's
 * status line, or with "hold" keeps the connections open (keep-alive) until it is killed.
 */
const CLIENT_SCRIPT = `
const net = require("node:net");
const fs = require("node:fs");
const [port, flag, clients, mode] = process.argv.slice(1).map((value, i) => (i === 0 || i === 2 ? Number(value) : value));
const hold = mode === "hold";
let connected = 0;
const statuses = [];
for (let i = 0; i < clients; i++) {
  const socket = net.connect(port, "127.0.0.1", () => {
    socket.write("GET /" + i + " HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: " + (hold ? "keep-alive" : "close") + "\\r\\n\\r\\n");
    if (++connected === clients) fs.writeFileSync(flag, "connected");
  });
  let response = "";
  let failure;
  socket.on("data", (chunk) => (response += chunk));
  // A connection reset (or refused) counts as its error code, in place of a status line.
  socket.on("error", (error) => (failure = error.code));
  // No answer in 10 s (a connection lost in a process that died) counts as "timeout".
  if (!hold) socket.setTimeout(10000, () => { failure = "timeout"; socket.destroy(); });
  socket.on("close", () => {
    statuses.push(failure ?? response.split("\\r\\n")[0]);
    if (statuses.length === clients) console.log(JSON.stringify(statuses));
  });
}
`;

let server: http.Server | undefined;
let copies: ListenerCopies | undefined;

afterEach(async () => {
  await copies?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = copies = undefined;
});

async function listen(): Promise<number> {
  server = http.createServer((request, response) => response.end(`answered ${request.url}`));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Blocks this process until CLIENTS connections wait in the kernel, then returns how many were
 * accepted by each following iteration until all were in, and the clients' status lines.
 */
async function acceptsPerIteration(
  port: number,
  mode: "close" | "hold" = "close",
  beforeUnblocking?: () => void,
): Promise<{ perIteration: number[]; statuses: string[]; client: ChildProcess }> {
  const flag = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "copies-")), "connected");
  let accepted = 0;
  server!.on("connection", () => accepted++);
  const client = spawn(process.execPath, ["-e", CLIENT_SCRIPT, String(port), flag, String(CLIENTS), mode], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  client.stdout.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => client.once("exit", resolve));

  // Busy, as a saturated server is: nothing runs on this loop until every client is queued.
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 20_000;
  while (!fs.existsSync(flag)) {
    if (Date.now() > deadline) throw new Error("the clients never connected");
    Atomics.wait(pause, 0, 0, 5);
  }
  beforeUnblocking?.();
  const perIteration: number[] = [];
  await new Promise<void>((resolve) => {
    let before = accepted;
    const giveUp = Date.now() + 10_000;
    const note = () => {
      if (accepted > before) perIteration.push(accepted - before);
      before = accepted;
      // Give up after 10 s: a connection lost elsewhere is never accepted here.
      if (accepted >= CLIENTS || perIteration.length > 100 || Date.now() > giveUp) resolve();
      else setImmediate(note);
    };
    setImmediate(note);
  });
  if (mode === "hold") return { perIteration, statuses: [], client };
  await exited;
  return { perIteration, statuses: JSON.parse(output) as string[], client };
}

describe("listening socket copies", () => {
  it("one handle: each iteration of a busy loop accepts a single waiting connection", async () => {
    const port = await listen();
    const { perIteration, statuses } = await acceptsPerIteration(port);
    expect(perIteration).toEqual(Array(CLIENTS).fill(1));
    expect(statuses).toEqual(Array(CLIENTS).fill("HTTP/1.1 200 OK"));
  });

  it("with 15 copies one iteration accepts all 16 waiting connections, and the HTTP server answers each", async () => {
    const port = await listen();
    copies = addListenerCopies(server!, CLIENTS - 1);
    await copies.ready;
    expect(copies.count).toBe(CLIENTS - 1);
    const { perIteration, statuses } = await acceptsPerIteration(port);
    expect(perIteration).toEqual([CLIENTS]);
    expect(statuses).toEqual(Array(CLIENTS).fill("HTTP/1.1 200 OK"));
  });

  it("the copier never takes a connection: killed while it holds the socket, every waiting visitor is still answered", async () => {
    const port = await listen();
    // So many copies that the copier is still at work (holding the socket) while the test runs.
    copies = addListenerCopies(server!, 100_000);
    const ready = copies.ready.catch((error: Error) => error);
    await vi.waitFor(() => expect(copies!.count).toBeGreaterThan(0), { timeout: 10_000, interval: 10 });
    const copier = Number(execFileSync("pgrep", ["-P", String(process.pid), "-f", "listener-copier"], { encoding: "utf8" }).trim());
    expect(copier).toBeGreaterThan(0);

    // With this loop blocked, the clients connect; only a process polling the socket could take
    // them now, and the copier is the only other one holding it. Then it dies, as by SIGKILL:
    // had it taken a connection, that connection would die with it.
    const { statuses } = await acceptsPerIteration(port, "close", () => process.kill(copier, "SIGKILL"));
    expect(statuses).toEqual(Array(CLIENTS).fill("HTTP/1.1 200 OK"));
    expect(String(await ready)).toMatch(/SIGKILL/);
  });

  it("close() waits for the connections the copies accepted, as the server's close waits for its own", async () => {
    const port = await listen();
    copies = addListenerCopies(server!, CLIENTS - 1);
    await copies.ready;
    // Every handle takes one of the 16: 15 connections belong to the copies.
    const { perIteration, client } = await acceptsPerIteration(port, "hold");
    expect(perIteration).toEqual([CLIENTS]);
    let closed = false;
    const closing = copies.close().then(() => (closed = true));
    expect(copies.count).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed).toBe(false);
    client.kill();
    await closing;
    expect(closed).toBe(true);
  });

  it("a server that dies while the copies are on their way leaves no process holding its port", async () => {
    // A server process that forks the copier, asks for many copies, and is killed (as by SIGKILL)
    // once the first has come back: the copier holds the socket and is still sending.
    const script = `
      const http = require("node:http");
      const fs = require("node:fs");
      const { fork } = require("node:child_process");
      const server = http.createServer();
      server.listen(0, "127.0.0.1", () => {
        const copier = fork(${JSON.stringify(path.resolve("server/listener-copier.mjs"))}, ["1000"], { execArgv: [], stdio: ["ignore", "ignore", "ignore", "ipc"] });
        copier.send("listener", server._handle);
        copier.once("message", () => {
          fs.writeSync(1, JSON.stringify({ port: server.address().port, copier: copier.pid }));
          process.kill(process.pid, "SIGKILL");
        });
      });
    `;
    const doomed = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    doomed.stdout.on("data", (chunk) => (output += chunk));
    await new Promise((resolve) => doomed.once("exit", resolve));
    const { port, copier } = JSON.parse(output) as { port: number; copier: number };

    const alive = () => {
      try {
        process.kill(copier, 0);
        return true;
      } catch {
        return false;
      }
    };
    await vi.waitFor(() => expect(alive()).toBe(false), { timeout: 10_000, interval: 50 });
    // The port is free again: a restarted server can listen on it.
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(port, "127.0.0.1", resolve));
    await new Promise((resolve) => probe.close(resolve));
  });

  it("once the server and its copies close, the port refuses connections", async () => {
    const port = await listen();
    copies = addListenerCopies(server!, 4);
    await copies.ready;
    const answer = await fetch(`http://127.0.0.1:${port}/x`, { headers: { connection: "close" } });
    expect(await answer.text()).toBe("answered /x");
    await copies.close();
    expect(copies.count).toBe(0);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});
