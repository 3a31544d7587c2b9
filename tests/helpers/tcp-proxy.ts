import net from "node:net";

/**
 * A TCP proxy between the app and PostgreSQL, for fault tests (issue 21). No mock: the app talks
 * to the real server through it, and the test decides what the network does:
 * - `pause()` freezes the database: connections stay open, nothing passes either way (bytes wait
 *   in the kernel's buffers), new connections are accepted and frozen too; `resume()` lets
 *   everything through again, as after a long garbage-collection pause or a stalled network.
 * - `refuse()` makes the database refuse connections: the listening socket closes (new ones get
 *   ECONNREFUSED) and every open connection is cut; `accept()` listens again on the same port.
 */
export type TcpProxy = {
  port: number;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string;
  pause(): void;
  resume(): void;
  refuse(): Promise<void>;
  accept(): Promise<void>;
  close(): Promise<void>;
};

type Target = { host: string; port: number } | { path: string };

/** Where a postgres:// URL points: host and port, or the Unix socket named by `?host=/dir`. */
export function postgresTarget(databaseUrl: string): Target {
  const url = new URL(databaseUrl);
  const port = Number(url.port || 5432);
  const socketDir = url.searchParams.get("host");
  if (socketDir?.startsWith("/")) return { path: `${socketDir}/.s.PGSQL.${port}` };
  return { host: url.hostname || "127.0.0.1", port };
}

export async function startTcpProxy(target: Target): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let paused = false;
  let port = 0;

  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
    if (paused) freeze(pair);
  });

  const freeze = (pair: { client: net.Socket; upstream: net.Socket }) => {
    // Stop reading on both sides: the app's queries and the server's answers stay unread.
    pair.client.unpipe(pair.upstream);
    pair.upstream.unpipe(pair.client);
    pair.client.pause();
    pair.upstream.pause();
  };
  const thaw = (pair: { client: net.Socket; upstream: net.Socket }) => {
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
  };

  const listen = (onPort: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(onPort, "127.0.0.1", () => {
        server.off("error", reject);
        port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

  await listen(0);
  return {
    get port() {
      return port;
    },
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      url.searchParams.delete("host");
      return url.toString();
    },
    pause() {
      paused = true;
      for (const pair of pairs) freeze(pair);
    },
    resume() {
      // Only a paused proxy resumes: piping a flowing pair again would send every byte twice.
      if (!paused) return;
      paused = false;
      for (const pair of pairs) thaw(pair);
    },
    async refuse() {
      // server.close() waits for open connections: cut them first, then stop listening.
      const closed = stopListening();
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.upstream.destroy();
        pairs.delete(pair);
      }
      await closed;
    },
    async accept() {
      if (!server.listening) await listen(port);
    },
    async close() {
      paused = false;
      const closed = stopListening();
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      await closed;
    },
  };
}
