import { type ChildProcess, fork } from "node:child_process";
import type { Server as HttpServer } from "node:http";
import net, { type Server as NetServer, type Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * More ways in for new connections while the server is saturated.
 *
 * libuv accepts one connection per event-loop iteration on each listening handle (libuv PR 3696,
 * 2022). A busy server's iteration serves every connection that has a request ready, 100 ms and
 * more at 200 busy connections on 2 cores, so it accepted 7–20 new connections a second: a
 * visitor arriving during a traffic spike (a new connection) waited seconds in the kernel's queue,
 * or gave up, while the visitors already connected were served. Keep-alive never helped them.
 *
 * Several handles on the same listening socket each accept one per iteration. A process cannot
 * duplicate a descriptor itself in Node.js, but a handle sent over a child's IPC channel arrives
 * as a new descriptor for the same socket: a short-lived child (listener-copier.mjs) gets the bare
 * handle (it never listens, so it never takes a connection), sends it back `count` times and
 * leaves. Each copy hands its connections to the HTTP server, which serves them like its own. An
 * unloaded server sees no difference (the first handle to wake takes the connection; the others
 * find none). Measured with a bare server at 200 connections: new connections waited 5.1 s
 * (median, 406 of 601 over 10 s) with one handle, 0.24 s with 16.
 *
 * Only where this process accepts for itself: cluster workers get their connections from the
 * primary (server/primary.ts). docs/decisions/009-accepting-connections-under-load.md has the
 * figures and what was tried first.
 */

const COPIER = path.join(path.dirname(fileURLToPath(import.meta.url)), "listener-copier.mjs");

export type ListenerCopies = {
  /** How many copies listen now. */
  readonly count: number;
  /** Settles once the copier has left: every copy listens, or it says why not. */
  readonly ready: Promise<void>;
  /**
   * Stops every copy accepting (and a copier still at work); resolves once the connections each
   * accepted have ended (the HTTP server serves them, and its closeIdleConnections and
   * closeAllConnections reach them too).
   */
  close(): Promise<void>;
};

/** Starts adding `count` handles on `server`'s listening socket (call once it listens). */
export function addListenerCopies(server: HttpServer, count: number): ListenerCopies {
  const copies: NetServer[] = [];
  let closed = false;
  let copier: ChildProcess | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    const listening = (server as unknown as { _handle?: object })._handle;
    if (!listening) return reject(new Error("the server is not listening"));
    // No loader flags (tsx): the copier is plain JavaScript and starts faster without them.
    copier = fork(COPIER, [String(count)], { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    copier.on("message", (message, handle) => {
      if (message !== "listener" || !handle) return;
      const copy = net.createServer();
      copy.on("connection", (socket: Socket) => server.emit("connection", socket));
      // Listening again on a listening socket only starts this handle polling it.
      copy.listen(handle as never);
      // A stop that began while the copier was still sending: this copy never serves.
      if (closed) copy.close();
      else copies.push(copy);
    });
    copier.once("error", reject);
    copier.once("exit", (code, signal) => {
      copier = undefined;
      if (code === 0) resolve();
      else reject(new Error(`listener copier exited with ${signal ?? code}`));
    });
    // The bare handle (type net.Native), not the server: see listener-copier.mjs.
    copier.send("listener", listening as never);
  });
  return {
    get count() {
      return copies.length;
    },
    ready,
    async close() {
      closed = true;
      // It holds a descriptor of the socket: gone with it, the port is free as soon as we close.
      copier?.kill();
      await Promise.all(copies.splice(0).map((copy) => new Promise<void>((resolve) => copy.close(() => resolve()))));
    },
  };
}
