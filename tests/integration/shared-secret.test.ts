import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openPostgres } from "~/db/client.server";
import { ensureAuthSecret } from "~/features/auth/auth-secret.server";
import { namedDatabaseUrl, refuseAnotherSecret, SecretMismatchError } from "~/features/auth/shared-secret.server";
import { createOwnDatabase } from "../helpers/server-process";

/**
 * Every server (and every cluster worker) must sign and seal with one auth secret. Workers that
 * share DATA_DIR and start at once agree on the one generated there; a server on the same
 * PostgreSQL whose secret differs from a running server's refuses to start.
 */

const base = process.env.TEST_DATABASE_URL;

describe("the auth secret generated into DATA_DIR", () => {
  it("is the one another process wrote first, when both found none", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "auth-secret-"));
    const file = path.join(dataDir, "auth-secret");
    const theirs = "segredo-do-outro-processo-".padEnd(64, "x");
    // The race of cluster workers starting at once, made certain: our look finds no file, and
    // another worker writes its secret right after that look.
    const read = fs.readFileSync;
    const spy = vi.spyOn(fs, "readFileSync").mockImplementationOnce(() => {
      fs.writeFileSync(file, theirs + "\n");
      throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
    });
    try {
      expect(ensureAuthSecret(dataDir)).toBe(theirs);
      spy.mockRestore();
      expect(read(file, "utf8").trim()).toBe(theirs);
      // No candidate file left behind.
      expect(fs.readdirSync(dataDir)).toEqual(["auth-secret"]);
      // And a later start reads the same.
      expect(ensureAuthSecret(dataDir)).toBe(theirs);
    } finally {
      spy.mockRestore();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!base)("servers on one PostgreSQL with different auth secrets", () => {
  let database: { url: string; drop(): Promise<void> };
  const open: { stop(): Promise<void> }[] = [];
  const serverEnv = (secret: string) => ({ dataDir: os.tmpdir(), AUTH_SECRET: secret });
  const first = serverEnv("a".repeat(48));
  const other = serverEnv("b".repeat(48));

  /** A server's database handle, with one connection held open as its listening connection is. */
  async function server(env: ReturnType<typeof serverEnv>) {
    const handle = await openPostgres(namedDatabaseUrl(database.url, env), 2);
    const held = await handle.pool!.connect();
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      held.release();
      await handle.close();
    };
    open.push({ stop });
    return Object.assign(handle, { stop });
  }

  beforeAll(async () => {
    database = await createOwnDatabase(base!, "secret");
  });
  afterAll(async () => {
    await Promise.all(open.map((server) => server.stop()));
    await database?.drop();
  });

  it("lets servers with the same secret start, and refuses one with another while they run", async () => {
    const running = await server(first);
    await expect(refuseAnotherSecret(running, first)).resolves.toBeUndefined();
    const second = await server(first);
    await expect(refuseAnotherSecret(second, first)).resolves.toBeUndefined();

    const stranger = await server(other);
    const refusal = refuseAnotherSecret(stranger, other);
    await expect(refusal).rejects.toBeInstanceOf(SecretMismatchError);
    await expect(refusal).rejects.toThrow(/Configure o mesmo AUTH_SECRET em todos os servidores/);
    await stranger.stop();

    // Once every server with the old secret has stopped (the secret changed everywhere), the new one starts.
    await running.stop();
    await second.stop();
    const renewed = await server(other);
    // (PostgreSQL ends a closed connection's backend a moment after the client leaves.)
    await vi.waitFor(() => refuseAnotherSecret(renewed, other), { timeout: 5_000, interval: 100 });
  });
});
