import { fork } from "node:child_process";
import type { Server as HttpServer } from "node:http";
import type { Server as NetServer, Socket } from "node:net";
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
 * as a new descriptor for the same socket: a short-lived child (listener-copier.mjs) sends the
 * socket back `count` times and leaves. Each copy hands its connections to the HTTP server, which
 * serves them like its own. An unloaded server sees no difference (the first handle to wake takes
 * the connection; the others find none). Measured with a bare server at 200 connections: new
 * connections waited 5.1 s (median, 406 of 601 over 10 s) with one handle, 0.24 s with 16.
 *
 * Only where this process accepts for itself: cluster workers get their connections from the
 * primary (server/primary.ts).
 */

const COPIER = path.join(path.dirname(fileURLToPath(import.meta.url)), "listener-copier.mjs");

export type ListenerCopies = {
  /** How many copies listen now. */
  readonly count: number;
  /**
   * Stops every copy accepting; resolves once the connections each accepted have ended (the HTTP
   * server serves them, and its closeIdleConnections/closeAllConnections reach them too).
   */
  close(): Promise<void>;
};

/** Adds `count` more handles on `server`'s listening socket; resolves once the copier has left. */
export function addListenerCopies(server: HttpServer, count: number): Promise<ListenerCopies> {
  const copies: NetServer[] = [];
  let closed = false;
  const result: ListenerCopies = {
    get count() {
      return copies.length;
    },
    async close() {
      closed = true;
      await Promise.all(copies.splice(0).map((copy) => new Promise<void>((resolve) => copy.close(() => resolve()))));
    },
  };
  return new Promise((resolve, reject) => {
    // No loader flags (tsx): the copier is plain JavaScript and starts faster without them.
    const copier = fork(COPIER, [String(count)], { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    copier.on("message", (message, handle) => {
      if (message === "listener") {
        const copy = handle as NetServer;
        // A stop that began while the copier was still sending: this copy never serves.
        if (closed) return copy.close();
        copy.on("connection", (socket: Socket) => server.emit("connection", socket));
        copies.push(copy);
      } else if (message === "connection") {
        server.emit("connection", handle as Socket);
      }
    });
    copier.once("error", reject);
    copier.once("exit", (code) => (code === 0 ? resolve(result) : reject(new Error(`listener copier exited with ${code}`))));
    copier.send("listener", server);
  });
}
