import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startServerProcess } from "../helpers/server-process";
import { TEMPLATE_DIR } from "./template";

/**
 * The operating contract around the embedded database: one process per data folder (a second
 * server and the CLI refuse with a clear message while one runs), and SIGTERM closes cleanly —
 * open event streams ended, database closed, lock released — quickly.
 */
test("one server per embedded database, and a clean stop on SIGTERM with streams open", async () => {
  test.setTimeout(120_000);
  const server = await startServerProcess({ port: 3231, templateDir: TEMPLATE_DIR });
  const dataDir = path.resolve(".tmp/server-3231");
  const lockFile = path.join(dataDir, "pglite.lock");
  try {
    expect(fs.readFileSync(lockFile, "utf8")).toBe(String(server.process.pid));

    // The CLI refuses, naming the reason, and changes nothing.
    const cli = spawnSync(process.execPath, ["--import", "tsx", "server/cli.ts", "user:list"], {
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: "utf8",
    });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain(`está em uso pelo processo ${server.process.pid}`);

    // So does a second server on the same folder.
    const second = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts"], {
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, PORT: "3232", SEED_DEMO: "false" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr + second.stdout).toContain("está em uso");

    // An open event stream must not keep the server from stopping.
    const stream = await fetch(`${server.url}/api/events`);
    const reader = stream.body!.getReader();
    await reader.read();
    server.process.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => server.process.once("exit", resolve));
    // 0, not the 1 of the 10-second safety exit: it closed cleanly, it did not hang.
    expect(code).toBe(0);
    expect(fs.existsSync(lockFile)).toBe(false);
    await expect.poll(() => server.output()).toContain("Encerrado.");
    // The stream was ended by the server, not cut.
    expect(await reader.read().then((chunk) => chunk.done, () => "connection reset")).toBe(true);
  } finally {
    await server.stop();
  }
});
