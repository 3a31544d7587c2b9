/**
 * An action's body as a plain object, whether the page sent JSON (the CRM dialogs) or a form
 * (a browser without JavaScript, or a hand-made post). Repeated form keys become arrays.
 */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  if (request.headers.get("content-type")?.includes("application/json")) {
    const body = await request.json().catch(() => null);
    return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  }
  const form = await request.formData().catch(() => new FormData());
  const result: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).filter((value): value is string => typeof value === "string");
    result[key] = values.length > 1 || key === "images" ? values : values[0];
  }
  return result;
}

export const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
