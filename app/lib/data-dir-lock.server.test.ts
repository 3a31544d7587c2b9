// @vitest-environment node
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { acquireLock, DataDirLockedError } from "./data-dir-lock.server";

const folders: string[] = [];
const tempLock = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));
  folders.push(dir);
  return path.join(dir, "pglite.lock");
};
afterEach(() => folders.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("embedded database lock", () => {
  it("refuses while another live process holds it, naming the pid", async () => {
    const lockFile = tempLock();
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      fs.writeFileSync(lockFile, String(holder.pid));
      expect(() => acquireLock(lockFile)).toThrow(DataDirLockedError);
      expect(() => acquireLock(lockFile)).toThrow(new RegExp(`processo ${holder.pid}`));
    } finally {
      holder.kill();
    }
  });

  it("takes over a lock left by a process that died, and releases it", () => {
    const lockFile = tempLock();
    fs.writeFileSync(lockFile, "999999");
    const release = acquireLock(lockFile);
    expect(fs.readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});
