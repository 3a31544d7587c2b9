import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_FREE_BYTES } from "~/db/availability.server";
import { openPglite } from "~/db/client.server";
import { leads } from "~/db/schema";
import { LEAD_MESSAGES } from "~/features/leads/messages";
import { action as contactAction } from "~/routes/contact";
import { loader as healthLoader } from "~/routes/healthz";
import { startRuntime, stopRuntime } from "~/runtime.server";
import { makeRequest } from "../helpers/factories";
import { startTestRuntime, type TestRuntime } from "../helpers/runtime";
import { answerOf, call } from "./auth-helpers";

/**
 * Issue 21, finding 19: the embedded database's disk fills up. Tested for real on a small tmpfs
 * mounted as DATA_DIR (needs root, as mounting does; the CI machines run as root), filled with
 * one big file: /healthz must say 503 while leads cannot be stored, a lead form must answer with
 * its own message and keep what was typed, start-up must say that the disk is full and where,
 * and once space is freed everything works again.
 */

const isRoot = process.getuid?.() === 0;
const CONTACT = { name: "Ana Disco", phone: "(84) 97777-1111", email: "ana@exemplo.com", message: "Quero vender meu apartamento" };

describe.skipIf(!isRoot)("embedded database on a full disk", () => {
  const mountPoint = path.resolve(`.tmp/disk-full-${crypto.randomBytes(4).toString("hex")}`);
  const dataDir = path.join(mountPoint, "data");
  const filler = path.join(mountPoint, "filler");
  let test: TestRuntime;

  beforeAll(() => {
    fs.mkdirSync(mountPoint, { recursive: true });
    // The migrated template (~40 MB) plus the headroom the server asks for, plus a little.
    const size = Math.ceil((48 * 1024 * 1024 + MIN_FREE_BYTES) / (1024 * 1024)) + 16;
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}m,mode=0700`, "tmpfs", mountPoint]);
  });
  afterAll(async () => {
    await stopRuntime();
    fs.rmSync(filler, { force: true });
    // Lazily: PGlite's aborted start keeps its files open in this process until it ends.
    execFileSync("umount", ["-l", mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  /** Takes every free byte of the filesystem, as a runaway log or backup would. */
  function fillDisk() {
    const { bavail, bsize } = fs.statfsSync(mountPoint);
    const fd = fs.openSync(filler, "w");
    try {
      const chunk = Buffer.alloc(1024 * 1024);
      for (let left = Number(bavail) * Number(bsize); left > 0; left -= chunk.length) fs.writeSync(fd, chunk, 0, Math.min(chunk.length, left));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    } finally {
      fs.closeSync(fd);
    }
  }

  const postContact = async (form: Record<string, string>, ip: string) => {
    const result = await call(contactAction, makeRequest("/contato", { form }), ip);
    return { ...answerOf<{ ok: boolean; message: string; values?: Record<string, string> }>(result), init: (result as { init?: { headers?: HeadersInit } }).init };
  };
  const health = async () => {
    const response = (await healthLoader()) as Response;
    return { status: response.status, body: (await response.json()) as { status: string; reason?: string } };
  };

  it("health says 503, leads answer with their message, start-up names the disk; all works once space is freed", async () => {
    test = await startTestRuntime("pglite", {}, { dataDir });
    expect((await health()).status).toBe(200);
    expect((await postContact(CONTACT, "198.51.100.201")).status).toBe(200);

    fillDisk();
    expect(await health()).toEqual({ status: 503, body: { status: "unavailable", reason: "disk-full" } });
    // Rows still fit in the tables' last pages for a while; the first that needs a new page fails.
    let refused: Awaited<ReturnType<typeof postContact>> | undefined;
    for (let i = 0; i < 60 && !refused; i++) {
      const answer = await postContact({ ...CONTACT, name: "Ana Sem Espaço", message: "Uma mensagem longa ".repeat(40) }, `198.51.101.${i}`);
      if (answer.status !== 200) refused = answer;
    }
    expect(refused?.status).toBe(503);
    expect(new Headers(refused!.init?.headers).get("Retry-After")).toMatch(/^\d+$/);
    expect(refused!.body).toMatchObject({ ok: false, message: LEAD_MESSAGES.contactFailure, values: { name: "Ana Sem Espaço" } });

    // A restart on the full disk says what is wrong and where, instead of PGlite's own words.
    const env = test.runtime.env;
    await stopRuntime();
    await expect(startRuntime({ env, firstStartTasks: false, log: () => {} })).rejects.toThrow(
      new RegExp(`Espaço em disco insuficiente em ${dataDir.replace(/[/.]/g, "\\$&")}: \\d+ MB livres.*pelo menos \\d+ MB`),
    );
    // And when PGlite itself is what fails on that disk (the check skipped), the message says so too.
    await expect(openPglite(dataDir, { checkFreeSpace: false })).rejects.toThrow(/Espaço em disco insuficiente/);

    fs.rmSync(filler);
    const runtime = await startRuntime({ env, firstStartTasks: false, log: () => {} });
    expect((await health()).status).toBe(200);
    expect((await postContact({ ...CONTACT, name: "Ana Com Espaço" }, "198.51.100.203")).status).toBe(200);
    expect(await runtime.db.select({ id: leads.id }).from(leads).where(eq(leads.full_name, "Ana Com Espaço"))).toHaveLength(1);
  });
});
