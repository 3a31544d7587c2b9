// @vitest-environment node
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startS3Server } from "../../../tests/helpers/s3-server";
import { S3Storage } from "./s3-storage.server";

const BUCKET = "photos";

let s3: Awaited<ReturnType<typeof startS3Server>>;
let endpoint: string;
let storage: S3Storage;
/** "METHOD url" of every request the server received since the current test began. */
let requests: string[] = [];

const newKey = (file = "large.webp") => `${randomUUID()}/${file}`;

beforeAll(async () => {
  s3 = await startS3Server(BUCKET);
  s3.server.httpServer.on("request", (request) => requests.push(`${request.method} ${request.url}`));
  endpoint = s3.endpoint;
  storage = new S3Storage({ endpoint, region: "us-east-1", bucket: BUCKET, forcePathStyle: true, ...s3.credentials });
});

afterAll(async () => {
  await s3?.stop();
});

beforeEach(() => {
  requests = [];
});

describe("S3Storage against s3rver", () => {
  it("gives back the same bytes and content type it stored, cacheable for a year", async () => {
    const key = newKey("large.jpg");
    const body = randomBytes(64 * 1024);
    await storage.put(key, body, "image/jpeg");

    const file = await storage.get(key);
    expect(file).not.toBeNull();
    expect(file!.contentType).toBe("image/jpeg");
    expect(Buffer.isBuffer(file!.body)).toBe(true);
    expect(file!.body.equals(body)).toBe(true);

    // The headers a browser or CDN will see when the bucket serves the file.
    const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: s3.credentials });
    const raw = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(raw.CacheControl).toBe("public, max-age=31536000, immutable");
    await raw.Body?.transformToByteArray();
    client.destroy();
  });

  it("returns null for a key that was never stored", async () => {
    expect(await storage.get(newKey())).toBeNull();
    expect(requests).toHaveLength(1);
  });

  it("lets other errors through instead of pretending the photo is missing", async () => {
    const wrongBucket = new S3Storage({ endpoint, region: "us-east-1", bucket: "no-such-bucket", forcePathStyle: true, ...s3.credentials });
    await expect(wrongBucket.get(newKey())).rejects.toMatchObject({ name: "NoSuchBucket" });
  });

  it("deletes several keys, and deleting missing keys is not an error", async () => {
    const id = randomUUID();
    const keys = [`${id}/large.webp`, `${id}/small.webp`, `${id}/large.jpg`];
    const kept = newKey();
    for (const key of [...keys, kept]) await storage.put(key, Buffer.from(key), "image/webp");

    await storage.delete(keys);
    for (const key of keys) expect(await storage.get(key)).toBeNull();
    expect((await storage.get(kept))?.body.toString()).toBe(kept);

    await expect(storage.delete([...keys, newKey(), newKey("thumb.jpg")])).resolves.toBeUndefined();
  });

  it("deletes in batches of at most 1000 keys, and sends nothing for an empty list", async () => {
    await storage.delete([]);
    expect(requests).toEqual([]);

    await storage.delete(Array.from({ length: 2500 }, () => newKey()));
    expect(requests.filter((request) => request.startsWith("POST ") && request.includes("delete"))).toHaveLength(3);
  });

  it("refuses an invalid key before sending any request", async () => {
    const kept = newKey();
    await storage.put(kept, Buffer.from("photo"), "image/webp");
    requests = [];

    await expect(storage.put("../etc/passwd", Buffer.from("x"), "image/webp")).rejects.toThrow(/Invalid media key/);
    await expect(storage.get("../etc/passwd")).rejects.toThrow(/Invalid media key/);
    await expect(storage.get(`${randomUUID()}/large.png`)).rejects.toThrow(/Invalid media key/);
    // One bad key stops the whole delete, even when it would fall in a later batch of 1000.
    const list = [kept, ...Array.from({ length: 1000 }, () => newKey()), "../etc/passwd"];
    await expect(storage.delete(list)).rejects.toThrow(/Invalid media key/);
    expect(requests).toEqual([]);
    expect(await storage.get(kept)).not.toBeNull();
  });
});
