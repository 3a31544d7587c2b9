import crypto from "node:crypto";
import { leads, properties, user_roles } from "~/db/schema";
import type { Role } from "~/db/values";
import { createUserWithPassword } from "~/features/auth/auth.server";
import type { Runtime } from "~/runtime.server";

/** Test data with valid defaults; override what the test is about. */

export function propertyValues(overrides: Partial<typeof properties.$inferInsert> = {}): typeof properties.$inferInsert {
  return {
    codigo: `T-${crypto.randomBytes(4).toString("hex").toUpperCase()}`,
    title: "Casa de teste em Ponta Negra",
    description: "Uma casa de teste com varanda, quintal e garagem.",
    type: "casa",
    purpose: "venda",
    status: "disponivel",
    featured: false,
    price: 500000,
    area: 120,
    bedrooms: 3,
    bathrooms: 2,
    parking_spaces: 2,
    neighborhood: "Ponta Negra",
    city: "Natal",
    state: "RN",
    images: [],
    ...overrides,
  };
}

export async function insertProperty(runtime: Pick<Runtime, "db">, overrides: Partial<typeof properties.$inferInsert> = {}) {
  const [row] = await runtime.db.insert(properties).values(propertyValues(overrides)).returning();
  return row;
}

export async function insertLead(runtime: Pick<Runtime, "db">, overrides: Partial<typeof leads.$inferInsert> = {}) {
  const [row] = await runtime.db
    .insert(leads)
    .values({ full_name: "Maria Teste", phone: "(84) 99999-0000", ...overrides })
    .returning();
  return row;
}

export type TestUser = { id: string; email: string; password: string; cookie: string };

/** A user (with a role, or none) already signed in: `cookie` goes in the Cookie header. */
export async function createSignedInUser(runtime: Pick<Runtime, "auth" | "db">, role: Role | null): Promise<TestUser> {
  const email = `u${crypto.randomBytes(5).toString("hex")}@teste.com`;
  const password = "senha-segura-1";
  const created = await createUserWithPassword(runtime.auth, { email, password, name: "Usuário Teste" });
  if (role) await runtime.db.insert(user_roles).values({ user_id: created.id, role });
  const { headers } = await runtime.auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
  return { id: created.id, email, password, cookie: cookieFrom(headers) };
}

/** "name=value; name2=value2" from Set-Cookie headers, as a browser would send back. */
export function cookieFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

const BASE = "http://localhost:3000";

/** A real Request as the browser would send it (form posts are urlencoded). */
export function makeRequest(
  pathname: string,
  options: { method?: string; form?: Record<string, string>; cookie?: string; headers?: Record<string, string> } = {},
): Request {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set("Cookie", options.cookie);
  if (options.form) headers.set("Content-Type", "application/x-www-form-urlencoded");
  headers.set("Origin", BASE);
  return new Request(BASE + pathname, {
    method: options.method ?? (options.form ? "POST" : "GET"),
    headers,
    body: options.form ? new URLSearchParams(options.form).toString() : undefined,
  });
}

/** Runs a loader/action and returns its Response whether it was returned or thrown. */
export async function settle<T>(work: () => Promise<T>): Promise<T | Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}
