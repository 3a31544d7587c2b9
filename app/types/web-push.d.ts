// The few parts of web-push (3.6, no bundled types) that features/push uses.
declare module "web-push" {
  import type { Agent } from "node:https";
  export type PushSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };
  export type RequestOptions = {
    vapidDetails: { subject: string; publicKey: string; privateKey: string };
    TTL?: number;
    urgency?: "very-low" | "low" | "normal" | "high";
    topic?: string;
    timeout?: number;
    agent?: Agent;
    contentEncoding?: "aes128gcm" | "aesgcm";
  };
  export type SendResult = { statusCode: number; body: string; headers: Record<string, string> };
  export class WebPushError extends Error {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
    endpoint: string;
  }
  export function generateVAPIDKeys(): { publicKey: string; privateKey: string };
  export function sendNotification(subscription: PushSubscription, payload?: string | Buffer | null, options?: RequestOptions): Promise<SendResult>;
  const webPush: { generateVAPIDKeys: typeof generateVAPIDKeys; sendNotification: typeof sendNotification; WebPushError: typeof WebPushError };
  export default webPush;
}

// web-push's own dependency, used by the tests to open what a push service received.
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  export function decrypt(buffer: Buffer, params: { version: "aes128gcm"; privateKey: ECDH; authSecret: string }): Buffer;
}
