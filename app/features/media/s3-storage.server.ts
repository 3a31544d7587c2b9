// Photos in an S3-compatible bucket (STORAGE_DRIVER=s3). It exists so that several app processes
// can share one set of photos: a photo uploaded through one process is served by all of them,
// which a local folder per process cannot do.
import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { assertMediaKey, contentTypeFor, type MediaStorage } from "./storage.server";

export interface S3StorageOptions {
  /** The server's URL for S3-compatible services (MinIO, R2, …); omit for AWS itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket in the path (https://host/bucket/key) rather than in the host name. */
  forcePathStyle: boolean;
}

/** S3 accepts at most this many keys in one DeleteObjects request. */
const DELETE_BATCH = 1000;

export class S3Storage implements MediaStorage {
  readonly kind = "s3";
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    });
  }

  async put(key: string, body: Buffer, contentType: string) {
    assertMediaKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        // A key is never reused for other bytes (a new photo gets a new id), so caches may keep it.
        CacheControl: "public, max-age=31536000, immutable",
      }),
    );
  }

  async get(key: string) {
    assertMediaKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!object.Body) throw new Error(`S3 returned no body for ${key}`);
      const body = Buffer.from(await object.Body.transformToByteArray());
      return { body, contentType: object.ContentType ?? contentTypeFor(key) };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async delete(keys: string[]) {
    // Check every key before sending anything, so a bad key deletes nothing.
    keys.forEach(assertMediaKey);
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      // DeleteObjects answers 200 even when some keys failed; those are listed in Errors.
      const failed = result.Errors ?? [];
      if (failed.length > 0) {
        const detail = failed.map((e) => `${e.Key}: ${e.Code} ${e.Message ?? ""}`.trim()).join("; ");
        throw new Error(`S3 could not delete ${failed.length} object(s): ${detail}`);
      }
    }
  }
}

/** The object is not there. A missing bucket is a configuration error, not a missing photo. */
function isMissingObject(error: unknown): boolean {
  if (error instanceof NoSuchKey) return true;
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  // Some S3-compatible servers answer a bare 404 the SDK cannot name.
  return failure?.$metadata?.httpStatusCode === 404 && failure.name !== "NoSuchBucket";
}
