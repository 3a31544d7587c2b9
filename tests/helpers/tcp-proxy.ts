import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy on a free port of 127.0.0.1 in front of a real server (PostgreSQL), which a test
 * can cut: `down()` drops every open connection and refuses new ones, as a network or database
 * outage does; `up()` lets connections through again. Nothing of the protocol is touched.
 */
export type TcpProxy = { port: number; down(): void; up(): void; stop(): Promise<void> };

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let isDown = false;
  const server = net.createServer((client) => {
    if (isDown) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    down() {
      isDown = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    up() {
      isDown = false;
    },
    stop() {
      isDown = true;
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
