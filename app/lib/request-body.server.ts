/**
 * Reading an action's body without trusting it. Whatever arrives (a body that is not what its
 * Content-Type says, truncated multipart, invalid JSON, files where text was expected, a key
 * sent twice) becomes either plain fields for the schema to judge or "malformed": never an
 * exception that would answer 500. The HTTP server has already capped the size (server/app.ts).
 */

export const BODY_MESSAGES = {
  malformed: "Dados enviados em formato inválido. Recarregue a página e tente de novo.",
} as const;

/** Field values as the schemas see them: text, or a list when a key came more than once. */
export type Fields = Record<string, string | string[] | undefined>;

const contentType = (request: Request) => request.headers.get("content-type")?.toLowerCase() ?? "";

const isFormType = (type: string) =>
  type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data");

/**
 * A form post's fields, or null when the body is not a readable form. A key sent twice becomes a
 * list (which a text rule refuses) rather than silently one of the two; `lists` names the keys
 * that are lists on purpose. Files are left out: no public form sends one.
 */
export async function readForm(request: Request, lists: readonly string[] = []): Promise<Fields | null> {
  if (!isFormType(contentType(request))) return null;
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return null;
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
 * Anything unreadable is an empty object, which every action answers with 400.
 */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = contentType(request);
  if (type.startsWith("application/json")) {
    const body = await request.json().catch(() => null);
    return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  }
  return (await readForm(request, ["images"])) ?? {};
}

export const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
