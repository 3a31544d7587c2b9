/**
 * The authorisation matrix's vocabulary, shared by every matrix file (crm-authorization.test.ts
 * and the feature files that add their own routes to it): the four kinds of caller and what
 * each must get from a staff page, an admin page, a staff API and an admin API.
 */

import { afterAll, beforeAll } from "vitest";
import { createSignedInUser, type TestUser } from "./factories";
import { startTestRuntime, type TestRuntime } from "./runtime";

export type Actor = "anonymous" | "noRole" | "corretor" | "admin";
export const ACTORS: Actor[] = ["anonymous", "noRole", "corretor", "admin"];
export const context = { cspNonce: "n", clientIp: "192.0.2.10" };

export type Outcome = { kind: "redirect"; location: string } | { kind: "status"; status: number } | { kind: "ok" };

export function outcomeOf(result: unknown): Outcome {
  if (result instanceof Response) {
    const location = result.headers.get("Location");
    // "/auth?next=/crm/imoveis" counts as "/auth": where the user lands, not where they go after.
    if (location && result.status >= 300 && result.status < 400) return { kind: "redirect", location: location.split("?")[0] };
    return result.ok ? { kind: "ok" } : { kind: "status", status: result.status };
  }
  if (result && typeof result === "object" && "init" in result) {
    const status = (result as { init: { status?: number } }).init?.status ?? 200;
    return status < 300 ? { kind: "ok" } : { kind: "status", status };
  }
  return { kind: "ok" };
}

export const PAGE_RULE: Record<Actor, Outcome> = {
  anonymous: { kind: "redirect", location: "/auth" },
  noRole: { kind: "redirect", location: "/" },
  corretor: { kind: "ok" },
  admin: { kind: "ok" },
};
export const ADMIN_PAGE_RULE: Record<Actor, Outcome> = { ...PAGE_RULE, corretor: { kind: "status", status: 403 } };
export const API_RULE: Record<Actor, Outcome> = {
  anonymous: { kind: "status", status: 401 },
  noRole: { kind: "status", status: 403 },
  corretor: { kind: "ok" },
  admin: { kind: "ok" },
};
export const ADMIN_API_RULE: Record<Actor, Outcome> = { ...API_RULE, corretor: { kind: "status", status: 403 } };
/** The pages e-mailed links open: anyone may load them (the token is the key). */
export const PUBLIC_RULE: Record<Actor, Outcome> = { anonymous: { kind: "ok" }, noRole: { kind: "ok" }, corretor: { kind: "ok" }, admin: { kind: "ok" } };


/**
 * The matrix's runtime and its three signed-in callers (no role, corretor, admin), started before
 * the file's own `beforeAll` hooks (registered after this call, so they run after it) and stopped
 * after its tests.
 */
export function matrixRuntime(kind: TestRuntime["kind"]) {
  const matrix = {
    test: undefined as TestRuntime | undefined,
    users: {} as Record<Exclude<Actor, "anonymous">, TestUser>,
    cookieOf: (actor: Actor) => (actor === "anonymous" ? undefined : matrix.users[actor].cookie),
    get runtime() {
      if (!matrix.test) throw new Error("matrixRuntime: used before its beforeAll ran");
      return matrix.test.runtime;
    },
  };
  beforeAll(async () => {
    matrix.test = await startTestRuntime(kind);
    matrix.users.noRole = await createSignedInUser(matrix.test.runtime, null);
    matrix.users.corretor = await createSignedInUser(matrix.test.runtime, "corretor");
    matrix.users.admin = await createSignedInUser(matrix.test.runtime, "admin");
  });
  afterAll(async () => {
    await matrix.test?.stop();
  });
  return matrix;
}
