import fs from "node:fs/promises";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

// s3rver ships no types; this is the little of it the tests use.
type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void>; httpServer: Server };
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: object) => S3rverInstance;

/** A real S3-compatible server (s3rver) on a free port, with one bucket, for tests. */
export async function startS3Server(bucket = "photos") {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    server,
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's built-in account.
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    async stop() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
