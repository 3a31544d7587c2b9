import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import { user_roles } from "~/db/schema";
import type { Role } from "~/db/values";
import { ROLES } from "~/db/values";
import { errorFields, logger } from "~/lib/logger.server";
import { getRuntime } from "~/features/runtime/handle.server";
import { checkSessionLifetime } from "./sessions.server";

/**
 * Server-side guards. Every /crm loader and action, and every staff-only resource route, starts
 * with one of these; hiding a button in the page is never the check.
 */

export type SessionUser = { id: string; email: string; name: string };
export type StaffUser = SessionUser & { role: Role };

/**
 * The signed-in user and the id of their session, from the session cookie, or null. A session
 * idle for 8 hours or begun 7 days ago ends here (sessions.server.ts).
 */
export async function getCurrentSession(request: Request): Promise<{ user: SessionUser; sessionId: string } | null> {
  const runtime = await getRuntime();
  const found = await runtime.auth.api.getSession({ headers: request.headers });
  if (!found) return null;
  if (!(await checkSessionLifetime(runtime, found.session))) return null;
  return { user: { id: found.user.id, email: found.user.email, name: found.user.name }, sessionId: found.session.id };
}

/** The signed-in user from the session cookie, or null. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  return (await getCurrentSession(request))?.user ?? null;
}

/** The user's role; a role that cannot be read is logged and counts as none (spec §8). */
export async function getUserRole(userId: string): Promise<Role | null> {
  try {
    const { db } = await getRuntime();
    const [row] = await db.select({ role: user_roles.role }).from(user_roles).where(eq(user_roles.user_id, userId)).limit(1);
    return row && (ROLES as readonly string[]).includes(row.role) ? row.role : null;
  } catch (error) {
    logger("auth").error(errorFields(error), "role could not be read");
    return null;
  }
}

type GuardOptions = {
  /** For resource routes called by scripts: answer 401/403 instead of redirecting. */
  api?: boolean;
};

/** No user → /auth; a user without admin or corretor → /; otherwise the staff user. */
export async function requireStaff(request: Request, options: GuardOptions = {}): Promise<StaffUser> {
  const user = await getSessionUser(request);
  if (!user) {
    if (options.api) throw new Response("Não autenticado", { status: 401 });
    const url = new URL(request.url);
    const next = url.pathname + url.search;
    throw redirect(next.startsWith("/crm") && next !== "/crm" ? `/auth?next=${encodeURIComponent(next)}` : "/auth");
  }
  const role = await getUserRole(user.id);
  if (!role) {
    if (options.api) throw new Response("Acesso negado", { status: 403 });
    throw redirect("/");
  }
  return { ...user, role };
}

/** Only admins (e.g. the users screen); a corretor gets 403. */
export async function requireAdmin(request: Request, options: GuardOptions = {}): Promise<StaffUser> {
  const staff = await requireStaff(request, options);
  if (staff.role !== "admin") throw new Response("Acesso negado", { status: 403 });
  return staff;
}
