import { isUtf8 } from "node:buffer";

/**
 * Reading an action's body without trusting it. Whatever arrives (a body that is not what its
 * Content-Type says, truncated multipart, invalid JSON, files where text was expected, a key
 * sent twice, text that is not UTF-8) becomes either plain fields for the schema to judge or a
 * refusal with a message: never an exception that would answer 500. The HTTP server has already
 * capped the size (server/app.ts).
 */

export const BODY_MESSAGES = {
  malformed: "Dados enviados em formato inválido. Recarregue a página e tente de novo.",
  notUtf8: "Alguns caracteres do texto enviado não puderam ser lidos (a codificação não é UTF-8). Digite o texto de novo e envie.",
} as const;

/** A body refused before any field is judged: the action answers 400 with `message`. */
export class UnreadableBody {
  constructor(readonly message: string) {}
}

/** Field values as the schemas see them: text, or a list when a key came more than once. */
export type Fields = Record<string, string | string[] | undefined>;

const contentType = (request: Request) => request.headers.get("content-type")?.toLowerCase() ?? "";

const isUrlencoded = (type: string) => type.startsWith("application/x-www-form-urlencoded");
const isMultipart = (type: string) => type.startsWith("multipart/form-data");

/**
 * A form post's fields. A key sent twice becomes a list (which a text rule refuses) rather than
 * silently one of the two; `lists` names the keys that are lists on purpose. Files are left out:
 * no form of ours sends one here. Text that is not UTF-8 is refused rather than read with
 * replacement characters ('Jos�'), which would be stored and mailed as such.
 */
export async function readForm(request: Request, lists: readonly string[] = []): Promise<Fields | UnreadableBody> {
  const type = contentType(request);
  if (!isUrlencoded(type) && !isMultipart(type)) return new UnreadableBody(BODY_MESSAGES.malformed);
  let form: FormData;
  try {
    const bytes = Buffer.from(await request.arrayBuffer());
    if (!(isUrlencoded(type) ? isUtf8(percentDecoded(bytes)) : multipartTextIsUtf8(bytes, type))) return new UnreadableBody(BODY_MESSAGES.notUtf8);
    form = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    return new UnreadableBody(BODY_MESSAGES.malformed);
  }
  const result: Fields = Object.create(null);
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).filter((value): value is string => typeof value === "string");
    if (values.length === 0) continue;
    result[key] = values.length > 1 || lists.includes(key) ? values : values[0];
  }
  return result;
}

/**
 * An action's body as a plain object, whether the page sent JSON (the CRM dialogs) or a form
 * (a browser without JavaScript, or a hand-made post). Repeated form keys become arrays.
 * Unreadable JSON is an empty object, which every action answers with 400; an unreadable form
 * or text that is not UTF-8 is refused with its message.
 */
export async function readBody(request: Request): Promise<Record<string, unknown> | UnreadableBody> {
  if (contentType(request).startsWith("application/json")) {
    const bytes = await request.arrayBuffer().catch(() => new ArrayBuffer(0));
    let text: string;
    try {
      // As request.json() reads it (a byte order mark dropped), but refusing what is not UTF-8.
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return new UnreadableBody(BODY_MESSAGES.notUtf8);
    }
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // judged below, like any other non-object
    }
    return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  }
  return readForm(request, ["images"]);
}

export const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * An urlencoded body with its %XX escapes turned into the bytes they stand for: the text the
 * fields decode to. (Separators and "+" are ASCII, so the whole is UTF-8 exactly when every name
 * and value is.) A "%" without two hex digits after it stays as it is, as URLSearchParams reads it.
 */
function percentDecoded(body: Buffer): Buffer {
  const out = Buffer.allocUnsafe(body.length);
  let length = 0;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i];
    if (byte === 0x25 && isHex(body[i + 1]) && isHex(body[i + 2])) {
      out[length++] = Number.parseInt(String.fromCharCode(body[i + 1], body[i + 2]), 16);
      i += 2;
    } else {
      out[length++] = byte;
    }
  }
  return out.subarray(0, length);
}

const isHex = (byte: number | undefined) =>
  byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));

/**
 * Whether every text part of a multipart body is UTF-8. File parts (a filename in their
 * Content-Disposition) are bytes of their own and are not judged. Only a check: the parsing
 * itself is left to the platform's FormData, which refuses malformed bodies.
 */
function multipartTextIsUtf8(body: Buffer, type: string): boolean {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!boundary) return true;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    // "\r\n" headers "\r\n\r\n" content "\r\n", then the next delimiter.
    const part = body.subarray(start, next);
    const headersEnd = part.indexOf("\r\n\r\n");
    if (headersEnd !== -1) {
      const headers = part.subarray(0, headersEnd).toString("latin1");
      const content = part.subarray(headersEnd + 4, Math.max(headersEnd + 4, part.length - 2));
      if (!/\bfilename\*?=/i.test(headers) && !isUtf8(content)) return false;
    }
    at = next;
  }
  return true;
}
