import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { user, user_roles } from "~/db/schema";
import type { Role } from "~/db/values";

/** Who can use the CRM (admins only: sign-up is open but grants no role). */

export type UserWithRole = { id: string; name: string; email: string; role: Role | null; createdAt: string };

export async function listUsersWithRoles(db: Database): Promise<UserWithRole[]> {
  const rows = await db
    .select({ id: user.id, name: user.name, email: user.email, role: user_roles.role, createdAt: user.createdAt })
    .from(user)
    .leftJoin(user_roles, eq(user_roles.user_id, user.id))
    .orderBy(asc(user.email));
  return rows.map((row) => ({ ...row, role: row.role ?? null, createdAt: new Date(row.createdAt).toISOString() }));
}

export const OWN_ADMIN_MESSAGE = "Você não pode remover o seu próprio acesso de administrador.";

/** Grants, changes or revokes (role null) a user's role. An admin cannot demote themself. */
export async function changeUserRole(
  db: Database,
  actorId: string,
  userId: string,
  role: Role | null,
): Promise<{ ok: true } | { ok: false; message: string; status: number }> {
  if (userId === actorId && role !== "admin") return { ok: false, message: OWN_ADMIN_MESSAGE, status: 400 };
  const [target] = await db.select({ id: user.id }).from(user).where(eq(user.id, userId));
  if (!target) return { ok: false, message: "Usuário não encontrado", status: 404 };
  if (role === null) {
    await db.delete(user_roles).where(eq(user_roles.user_id, userId));
  } else {
    await db.insert(user_roles).values({ user_id: userId, role }).onConflictDoUpdate({ target: user_roles.user_id, set: { role } });
  }
  return { ok: true };
}
