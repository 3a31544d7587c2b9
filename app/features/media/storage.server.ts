import fs from "node:fs/promises";
import path from "node:path";

/**
 * Where photo files live. A small interface so the same pipeline writes to the local disk (one
 * process, the default) or to an S3-compatible bucket (several processes sharing the files).
 */
export interface MediaStorage {
  readonly kind: "local" | "s3";
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none. */
  get(key: string): Promise<{ body: Buffer; contentType: string } | null>;
  delete(keys: string[]): Promise<void>;
}

const KEY = /^[A-Za-z0-9-]{8,64}\/[a-z0-9]+\.(webp|jpg)$/;
/** Private documents (owners' authorisations, decision 024): never reachable from /media. */
const PRIVATE_KEY = /^private-[0-9a-f-]{36}\/[a-z0-9]+\.pdf$/;

/** Keys are "{mediaId}/{file}"; anything else is refused so no key can climb out of the folder. */
export function assertMediaKey(key: string) {
  if (!KEY.test(key) && !PRIVATE_KEY.test(key)) throw new Error(`Invalid media key: ${key}`);
}

export function contentTypeFor(key: string): string {
  if (key.endsWith(".pdf")) return "application/pdf";
  return key.endsWith(".jpg") ? "image/jpeg" : "image/webp";
}

export class LocalDiskStorage implements MediaStorage {
  readonly kind = "local";
  constructor(private readonly root: string) {}

  private file(key: string) {
    assertMediaKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer) {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temporary = `${file}.${process.pid}.tmp`;
    await fs.writeFile(temporary, body);
    await fs.rename(temporary, file);
  }

  async get(key: string) {
    try {
      return { body: await fs.readFile(this.file(key)), contentType: contentTypeFor(key) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(keys: string[]) {
    const folders = new Set<string>();
    for (const key of keys) {
      const file = this.file(key);
      await fs.rm(file, { force: true });
      folders.add(path.dirname(file));
    }
    // Remove a photo's folder once it is empty.
    for (const folder of folders) await fs.rmdir(folder).catch(() => {});
  }
}
